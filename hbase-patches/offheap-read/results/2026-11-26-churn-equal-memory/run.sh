#!/usr/bin/env bash
# Session 11: churn at equal total memory (offheap-read). Run from the repository root with the
# benchmarks jar copied to a private path: JMH_JAR=/tmp/offheap/benchmarks.jar this-dir/run.sh
# churnMemory=total (the benchmark's default): BucketCache's configured size is the 6 MB budget
# less the most its writer queues can hold on the heap (3 writers x (1 queued + 1 drained block)
# x 70,656 B), so its buckets plus heap queue never exceed what our cache gets.
# Every fork holds the shared JMH lock (paired-forks.sh); start, end and load go to commands.txt.
set -euo pipefail
here=hbase-patches/offheap-read/results/2026-11-26-churn-equal-memory
jar=${JMH_JAR:?set JMH_JAR}
log() { echo "$*" >> "$here/commands.txt"; }
stamp() { date -u '+%Y-%m-%d %H:%M:%S UTC'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
case=churn-1000-t1
cmd=(dev-support/paired-forks.sh --rounds 5 --cpu cpuNanos --target 1.1 --out "$here/$case"
  OffHeapReadBenchmark mode=UPSTREAM,PATCHED -- -p workload=churn -p churnMemory=total
  -p valueSize=1000 -t 1 -prof gc -wi 4 -w 3s -i 5 -r 2s)
log "== $case start $(stamp), load: $(load)"
log "JMH_JAR=$jar ${cmd[*]}"
rc=0; JMH_JAR=$jar "${cmd[@]}" > "$here/$case.log" 2>&1 || rc=$?
log "   end $(stamp) rc=$rc, load: $(load)"
JMH_JAR=$jar hbase-patches/offheap-read/results/2026-11-25-paired/ratios.sh "$here/$case" \
  > "$here/$case/ratios.md"
