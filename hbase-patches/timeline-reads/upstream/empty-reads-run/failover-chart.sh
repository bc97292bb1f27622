#!/usr/bin/env bash
# Writes failover-chart.md: Mermaid line charts of the slowest read per half second through the
# graceful stop and the abort, the worst of the five rounds at each half second, three modes,
# from this directory's *-roundN-timeline.csv files. Run from this directory: bash failover-chart.sh
set -euo pipefail
worst() { # $1 = fault, $2 = mode; prints the per-half-second max over the rounds, Mermaid list
  awk -F, 'FNR > 1 && $1 < 10 { if (!($1 in m) || $4 > m[$1]) m[$1] = $4 }
    END { for (s = 0; s < 10; s += 0.5) v = v (v == "" ? "" : ", ") sprintf("%.1f", m[sprintf("%.1f", s)] + 0)
          print "[" v "]" }' "$1-$2"-round*-timeline.csv
}
{
  echo "# Failover, five rounds: the slowest read in each half second (ms, worst round)"
  echo
  echo "Written by \`failover-chart.sh\` from the \`*-timeline.csv\` files beside it (\`max_ms\`"
  echo "column, the highest of the five rounds in each half second). Lines in legend order:"
  echo "BASELINE (STRONG), UPSTREAM (2.6.1 sync TIMELINE), PATCHED. The fault comes 3 s into each"
  echo "10 s run. Latency only: UPSTREAM's empty answers are in \`failover.md\`."
  for fault in gracefulStop abort; do
    echo
    echo "## $fault"
    echo
    echo '```mermaid'
    echo "xychart-beta"
    echo "  title \"$fault of the primary's server: slowest read per 0.5 s, worst of 5 rounds (ms)\""
    echo -n "  x-axis \"second of the run\" ["
    for s in $(seq 0 0.5 9.5); do echo -n "\"$s\"$([ "$s" != 9.5 ] && echo -n ', ')"; done
    echo "]"
    echo "  y-axis \"ms\""
    for mode in BASELINE UPSTREAM PATCHED; do
      echo "  line $(worst "$fault" "$mode")"
    done
    echo '```'
  done
} > failover-chart.md
