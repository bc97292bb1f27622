#!/usr/bin/env bash
# Region selection alone (LocalIndexPlanBenchmark.select), point lookup, UPSTREAM vs PATCHED,
# five forks per mode, one JMH run (one lock hold) per region count. JSON per region count;
# ratios with ForkStats: dev-support/compare.sh --modes UPSTREAM,PATCHED --target 10 JSON.
# Usage: run.sh JAR OUTDIR [REGIONS...]   (JAR: a private copy of jmh-benchmarks' benchmarks.jar)
set -euo pipefail
jar=$1; out=$2; shift 2
regions=("${@:-100 1000 10000 100000}")
mkdir -p "$out"
for r in ${regions[@]}; do
  echo "regions=$r start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-load.txt"
  flock /tmp/hbasepatches-jmh.lock java -jar "$jar" 'LocalIndexPlanBenchmark.select' \
    -p regions="$r" -p shape=point -p mode=UPSTREAM,PATCHED -f 5 -wi 5 -w 1s -i 5 -r 1s \
    -rf json -rff "$out/select-$r.json" > "$out/select-$r.log" 2>&1
  echo "regions=$r end $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-load.txt"
done
