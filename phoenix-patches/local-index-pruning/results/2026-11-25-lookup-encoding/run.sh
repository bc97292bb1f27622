#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0
#
# Uncovered LOCAL index row lookup, data table in ROW_INDEX_V1 vs FAST_DIFF
# (LocalIndexLookupEncodingScenario, module test scope): one fresh JVM and minicluster per fork,
# each under /tmp/hbasepatches-jmh.lock, not niced; then FAST_DIFF / ROW_INDEX_V1 latency per
# fork through ForkStatsCli (> 1: ROW_INDEX_V1 faster).
# Usage: JMH_JAR=benchmarks.jar run.sh CLASSPATH_FILE OUTDIR FORKS REGIONS ROWS WARMUP QUERIES BLOCK
set -euo pipefail
cp_file=$1; out=$2; forks=$3; shift 3
mkdir -p "$out"
for f in $(seq 1 "$forks"); do
  echo "fork $f start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-load.txt"
  flock /tmp/hbasepatches-jmh.lock java -Xmx3g -cp "$(cat "$cp_file")" \
    dev.hbasepatches.localindex.LocalIndexLookupEncodingScenario "$out/fork-$f.tsv" "$@" \
    > "$out/fork-$f.log" 2>&1
  echo "fork $f end $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-load.txt"
done
for f in "$out"/fork-*.tsv; do
  awk -F'\t' '{t[$1]=$3} END {printf "FAST_DIFF / ROW_INDEX_V1 latency\t%.6f\n", t["FAST_DIFF"]/t["ROW_INDEX_V1"]}' "$f"
done | java -cp "${JMH_JAR:?JMH_JAR must name a benchmarks jar}" dev.hbasepatches.jmh.report.ForkStatsCli --target 1.0 > "$out/ratios.md"
