#!/usr/bin/env bash
# Growth with the region count, per mode: score at N regions against the score at 100 regions,
# with ForkStats' interval (dev-support/compare.sh OLD NEW). "No faster than log(regions)"
# (kept regions are one or two here) means ops/s at N >= ops/s at 100 * log(100) / log(N), so
# the target passed to compare.sh is log(100) / log(N). Needs jq.
# Usage: growth.sh DIR   (DIR holds select-<regions>.json; JMH_JAR as for compare.sh)
set -euo pipefail
dir=$1
root=$(cd "$(dirname "$0")/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mode in PATCHED UPSTREAM; do
  jq --arg m "$mode" '[.[] | select(.params.mode == $m) | .params.regions = "N"]' \
    "$dir/select-100.json" > "$tmp/100.json"
  for n in 1000 10000 100000; do
    [ -f "$dir/select-$n.json" ] || continue
    jq --arg m "$mode" '[.[] | select(.params.mode == $m) | .params.regions = "N"]' \
      "$dir/select-$n.json" > "$tmp/$n.json"
    target=$(awk -v n="$n" 'BEGIN { printf "%.3f", log(100) / log(n) }')
    echo "### $mode: $n regions against 100 (target ops ratio >= $target)"
    "$root/dev-support/compare.sh" --target "$target" "$tmp/100.json" "$tmp/$n.json" | tail -1
  done
done
