#!/usr/bin/env bash
# BlockSeekBenchmark, PATCHED against UPSTREAM in paired single forks: round after round one JMH
# run per mode (seek and scanBlock at 30 and 100-byte cells, one fork each), the order
# reversed every other round; each run holds the project's benchmark lock. JSON per run.
# Usage: run-blockseek.sh JAR OUTDIR ROUNDS
set -euo pipefail
jar=$1 out=$2 rounds=$3
mkdir -p "$out"
for ((r = 1; r <= rounds; r++)); do
  order=(UPSTREAM PATCHED)
  ((r % 2 == 0)) && order=(PATCHED UPSTREAM)
  for m in "${order[@]}"; do
    echo "== round $r $m $(date -u +%H:%M:%S)"
    flock /tmp/hbasepatches-jmh.lock java -jar "$jar" 'rowindex.BlockSeekBenchmark' \
      -p mode=$m -p baseline=FAST_DIFF -p cellSize=30,100 -f 1 -wi 3 -w 1s -i 4 -r 1s -prof gc \
      -rf json -rff "$out/$(printf 'r%02d' $r)-$m.json"
  done
done
