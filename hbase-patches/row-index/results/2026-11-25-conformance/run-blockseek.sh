#!/usr/bin/env bash
# BlockSeekBenchmark, PATCHED against UPSTREAM in paired single forks: round after round one JMH
# run per mode (seek and scanBlock at 30- and 100-byte cells, one fork each), both runs of a round
# back to back under one hold of the project's benchmark lock, the order reversed every other
# round. JSON per run. Usage: run-blockseek.sh JAR OUTDIR ROUNDS [FIRST_ROUND [MODES]]
# (FIRST_ROUND and MODES, e.g. "3 PATCHED", finish a round that was cut short). JMH_LOCK=none
# skips the per-round lock, for a caller that holds it around several rounds.
set -euo pipefail
jar=$1 out=$2 rounds=$3 first=${4:-1} only=${5:-}
mkdir -p "$out"
for ((r = first; r <= rounds; r++)); do
  order="UPSTREAM PATCHED"
  ((r % 2 == 0)) && order="PATCHED UPSTREAM"
  [[ -n $only && $r == "$first" ]] && order=$only
  echo "== round $r ($order) waiting $(date -u +%H:%M:%S)"
  lock=(flock "${JMH_LOCK:-/tmp/hbasepatches-jmh.lock}")
  [[ ${JMH_LOCK:-} == none ]] && lock=()
  "${lock[@]}" bash -c '
    for m in '"$order"'; do
      echo "== round '"$r"' $m $(date -u +%H:%M:%S)"
      java -jar "$0" rowindex.BlockSeekBenchmark -p mode=$m -p baseline=FAST_DIFF \
        -p cellSize=30,100 -f 1 -wi 3 -w 1s -i 4 -r 1s -prof gc \
        -rf json -rff "$1/$(printf "r%02d" '"$r"')-$m.json"
    done' "$jar" "$out"
done
