#!/usr/bin/env bash
# RegionReadBenchmark, PATCHED against UPSTREAM in paired single forks (as run-blockseek.sh):
# countDeleted999 from the block cache (reseeks past deleted rows, the path the seeker change
# touches), one fork per mode per round.
# Usage: run-region.sh JAR OUTDIR ROUNDS
set -euo pipefail
jar=$1 out=$2 rounds=$3
mkdir -p "$out"
for ((r = 1; r <= rounds; r++)); do
  order=(UPSTREAM PATCHED)
  ((r % 2 == 0)) && order=(PATCHED UPSTREAM)
  for m in "${order[@]}"; do
    echo "== round $r $m $(date -u +%H:%M:%S)"
    flock /tmp/hbasepatches-jmh.lock java -jar "$jar" 'rowindex.RegionReadBenchmark' \
      -p mode=$m -p baseline=NONE -p workload=countDeleted999 -p cache=cached \
      -p rows=100000 -f 1 -wi 6 -w 2s -i 4 -r 2s \
      -rf json -rff "$out/$(printf 'r%02d' $r)-$m.json"
  done
done
