#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0
#
# The seed's experiment end to end (HBASE-11425): hbase-perf's cachedReads (load, flush, warm
# every block into the block cache, then randomRead and 100-row multi-gets) on the embedded
# cluster, once per mode of the offheap-read L2. Each run holds the project's benchmark lock, as
# a JMH fork does, and records the load average before and after.
#
#   mvn -B package -DskipTests -pl hbase-perf -am     # hbase-perf.jar and the module's jar
#   hbase-patches/offheap-read/results/2026-11-25-hbase-perf/run.sh [ROWS] [CLIENTS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
rows="${1:-20000}"
clients="${2:-2}"
for mode in ${MODES:-BASELINE UPSTREAM PATCHED}; do
  cmd=(dev-support/hbase-perf.sh --changes=offheap-read --changeMode="$mode" --rows="$rows"
    --verify --progress=0 --json="$here/$mode.json" cachedReads "$clients")
  {
    echo "command: ${cmd[*]}"
    echo "start: $(date -u +%FT%TZ)  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  } > "$here/$mode.txt"
  (cd "$root" && flock -w 1800 /tmp/hbasepatches-jmh.lock "${cmd[@]}") \
    >> "$here/$mode.txt" 2> "$here/$mode.stderr.txt"
  echo "end: $(date -u +%FT%TZ)  load average: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$here/$mode.txt"
done
