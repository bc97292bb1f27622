#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0
#
# The seed's experiment end to end (HBASE-11425) on hbase-perf's embedded cluster: cachedReads
# (load, flush, warm every data block into the L2, then randomRead and 100-row multi-gets, each
# value verified) once per mode of the offheap-read L2 per round, the three modes in a rotated
# order each round (BASELINE PATCHED UPSTREAM, then PATCHED UPSTREAM BASELINE, ...). Each run is
# one JVM holding the project's benchmark lock for that run only; load averages before and after
# each run go to rounds.txt.
#
#   ROOT=/tmp/s12-offheap/root  # a copy of dev-support/hbase-perf.sh, jdk17-opens.sh and the jars
#   run.sh FIRST_ROUND LAST_ROUND
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${ROOT:?set ROOT to a frozen copy: dev-support/, hbase-perf/target/hbase-perf.jar, hbase-patches/offheap-read/target/*.jar}"
first="${1:-1}"
last="${2:-5}"
rows="${ROWS:-150000}"
sample="${SAMPLE:-0.25}"
modes=(BASELINE PATCHED UPSTREAM)
load() { cut -d' ' -f1-3 /proc/loadavg; }
for ((r = first; r <= last; r++)); do
  order=()
  for ((k = 0; k < 3; k++)); do order+=("${modes[(k + r - 1) % 3]}"); done
  for mode in "${order[@]}"; do
    tag=$(printf 'r%02d-%s' "$r" "$mode")
    cmd=(dev-support/hbase-perf.sh --changes=offheap-read --changeMode="$mode" --rows="$rows"
      --sampleRate="$sample" --verify --progress=0 --json="$here/$tag.json" cachedReads 2)
    echo "round $r $mode queued $(date -u +%FT%TZ) load: $(load)" >> "$here/rounds.txt"
    rc=0
    (cd "$root" && flock /tmp/hbasepatches-jmh.lock bash -c \
      'echo "round '"$r $mode"' start $(date -u +%FT%TZ) load: $(cut -d" " -f1-3 /proc/loadavg)" \
         >> '"$here"'/rounds.txt; exec "$@"' _ "${cmd[@]}") \
      > "$here/$tag.txt" 2> "$here/$tag.stderr.txt" || rc=$?
    echo "round $r $mode end   $(date -u +%FT%TZ) load: $(load) rc=$rc" >> "$here/rounds.txt"
    echo "command: ${cmd[*]}" >> "$here/$tag.txt"
  done
done
