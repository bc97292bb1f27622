#!/usr/bin/env bash
# Session 10 churn measurements (offheap-read). Run from the repository root with the benchmarks
# jar copied to a private path: JMH_JAR=/tmp/offheap/benchmarks.jar this-dir/run.sh [diag|paired]
# Every fork holds the shared JMH lock; start, end and load average go to commands.txt.
set -euo pipefail
here=hbase-patches/offheap-read/results/2026-11-25-s10-churn
jar=${JMH_JAR:?set JMH_JAR}
log() { echo "$*" >> "$here/commands.txt"; }
stamp() { date -u '+%Y-%m-%d %H:%M:%S UTC'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
opts=(-p workload=churn -p valueSize=1000 -t 1 -prof gc)
case ${1:-paired} in
  diag)
    # One fork per setting: the L2's hit ratio and capacity in blocks (printed at tear-down).
    # Session 10 ran "mode=PATCHED" here, then (diag19) PATCHED with the memory BucketCache used:
    # its 6 MB plus the ~13 MB mean of its heap queue that the paired run's UPSTREAM forks printed.
    specs=("mode=PATCHED")
    [[ ${2:-} == 19 ]] && specs=("mode=PATCHED -p churnL2Mb=19")
    for spec in "${specs[@]}"; do
      name=$(echo "$spec" | tr ' =' '_-' | sed 's/-p_//')
      cmd=(java -jar "$jar" OffHeapReadBenchmark -p ${spec} "${opts[@]}" -f 1 -wi 4 -w 3s -i 5 -r 2s
        -rf csv -rff "$here/diag/$name.csv")
      mkdir -p "$here/diag"
      log "== diag $name start $(stamp), load: $(load)"
      log "flock /tmp/hbasepatches-jmh.lock ${cmd[*]}"
      rc=0; flock /tmp/hbasepatches-jmh.lock "${cmd[@]}" > "$here/diag/$name.log" 2>&1 || rc=$?
      log "   end $(stamp) rc=$rc, load: $(load)"
    done
    ;;
  paired)
    log "== churn-1000-t1 start $(stamp), load: $(load)"
    cmd=(dev-support/paired-forks.sh --rounds 5 --cpu cpuNanos --out "$here/churn-1000-t1"
      OffHeapReadBenchmark mode=PATCHED,BASELINE,UPSTREAM -- "${opts[@]}" -wi 4 -w 3s -i 5 -r 2s)
    log "JMH_JAR=$jar ${cmd[*]}"
    rc=0; JMH_JAR=$jar "${cmd[@]}" > "$here/churn-1000-t1.log" 2>&1 || rc=$?
    log "   end $(stamp) rc=$rc, load: $(load)"
    JMH_JAR=$jar hbase-patches/offheap-read/results/2026-11-25-paired/ratios.sh \
      "$here/churn-1000-t1" > "$here/churn-1000-t1/ratios.md"
    ;;
esac
