#!/usr/bin/env bash
# Session 11: multi-gets (2 and 1 threads) and scans against UPSTREAM on the current code (after
# session 10's slab fix), five paired rounds each, -prof gc for bytes/op. BASELINE is left out:
# its targets have session 9's five-round intervals, and the shared JMH lock gave each session
# about one fork in four this night.
# Run from the repository root: JMH_JAR=/tmp/offheap/benchmarks.jar this-dir/run.sh [case...]
# Every fork holds the shared JMH lock (paired-forks.sh); start, end and load go to commands.txt.
set -euo pipefail
here=hbase-patches/offheap-read/results/2026-11-26-multiget-scan
jar=${JMH_JAR:?set JMH_JAR}
log() { echo "$*" >> "$here/commands.txt"; }
stamp() { date -u '+%Y-%m-%d %H:%M:%S UTC'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(multiGet-1000-t2 scan-1000-t1 multiGet-1000-t1)
for case in "${cases[@]}"; do
  IFS=- read -r workload value threads <<< "$case"
  cmd=(dev-support/paired-forks.sh --rounds 5 --cpu cpuNanos --target 1.0 --out "$here/$case"
    OffHeapReadBenchmark mode=UPSTREAM,PATCHED -- -p "workload=$workload"
    -p "valueSize=$value" -t "${threads#t}" -prof gc -wi 4 -w 3s -i 5 -r 2s)
  log "== $case start $(stamp), load: $(load)"
  log "JMH_JAR=$jar ${cmd[*]}"
  rc=0; JMH_JAR=$jar "${cmd[@]}" > "$here/$case.log" 2>&1 || rc=$?
  log "   end $(stamp) rc=$rc, load: $(load)"
  JMH_JAR=$jar hbase-patches/offheap-read/results/2026-11-25-paired/ratios.sh "$here/$case" \
    > "$here/$case/ratios.md"
done
