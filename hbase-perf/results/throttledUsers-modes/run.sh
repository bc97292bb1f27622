#!/usr/bin/env bash
# Rounds of throttledUsers with stock HBase quotas and with the quotas module (PATCHED), the order
# alternating by round; each run one JVM under the JMH lock. ROOT: a copy of dev-support/,
# hbase-perf/target/hbase-perf.jar and hbase-patches/quotas/target/*.jar (frozen jars).
# Usage: run.sh ROOT FIRST_ROUND LAST_ROUND
set -euo pipefail
root="$1"; here="$(cd "$(dirname "$0")" && pwd)"
for r in $(seq "$2" "$3"); do
  if (( r % 2 )); then order="patched stock"; else order="stock patched"; fi
  for m in $order; do
    out="$here/r$r-$m"; mkdir -p "$out"
    extra=(); [[ $m == patched ]] && extra=(--changes=quotas --changeMode=PATCHED)
    { uptime; date -u; } > "$out/load.txt"
    set +e
    flock /tmp/hbasepatches-jmh.lock "$root/dev-support/hbase-perf.sh" "${extra[@]}" --rows=10000 \
      --throttle=50req/sec --duration=10s --reportDir="$out" throttledUsers 2 \
      > "$out/stdout.txt" 2> "$out/stderr.txt"
    echo "exit $?" >> "$out/load.txt"; set -e
    { uptime; date -u; } >> "$out/load.txt"
  done
done
