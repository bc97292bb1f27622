#!/usr/bin/env bash
# Writes failover-chart.md: Mermaid line charts of the slowest read per half second through the
# graceful stop and the abort (round 1, the three modes), from this directory's timeline CSVs.
# Run from this directory: bash failover-chart.sh
set -euo pipefail
series() { # $1 = CSV; prints the max_ms column as a Mermaid list
  awk -F, 'NR > 1 && $1 < 15 { v = v (v == "" ? "" : ", ") $4 } END { print "[" v "]" }' "$1"
}
axis() {
  awk -F, 'NR > 1 && $1 < 15 { v = v (v == "" ? "" : ", ") "\"" $1 "\"" } END { print "[" v "]" }' "$1"
}
{
  echo "# Failover, run 3: the slowest read in each half second (ms)"
  echo
  echo "From the \`*-round1-timeline.csv\` files beside this one (\`max_ms\` column), written by"
  echo "\`failover-chart.sh\`. Lines in legend order: BASELINE (STRONG), UPSTREAM (2.6.1 sync"
  echo "TIMELINE), PATCHED. The fault is injected 3 s into each 15 s run. Latency only: the"
  echo "wrong answers are in runs.md (UPSTREAM answered EMPTY for existing rows 117 times in the"
  echo "graceful stop and 5 times in the abort; PATCHED and BASELINE never)."
  for fault in gracefulStop abort; do
    echo
    echo "## $fault"
    echo
    echo '```mermaid'
    echo "xychart-beta"
    echo "  title \"$fault of the primary's server: max latency per 0.5 s (ms)\""
    echo "  x-axis \"second of the run\" $(axis "$fault-BASELINE-round1-timeline.csv")"
    echo "  y-axis \"ms\""
    for mode in BASELINE UPSTREAM PATCHED; do
      echo "  line $(series "$fault-$mode-round1-timeline.csv")"
    done
    echo '```'
    echo
    echo "| mode | max ms over the run | half-seconds with a read over 50 ms |"
    echo "|---|---|---|"
    for mode in BASELINE UPSTREAM PATCHED; do
      awk -F, -v m="$mode" 'NR > 1 { if ($4 > max) max = $4; if ($4 > 50) n++ }
        END { printf "| %s | %.1f | %d |\n", m, max, n }' "$fault-$mode-round1-timeline.csv"
    done
  done
} > failover-chart.md
