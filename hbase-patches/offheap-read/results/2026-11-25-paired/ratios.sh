#!/usr/bin/env bash
# Per-round ratios PATCHED/BASELINE and PATCHED/UPSTREAM from paired-forks.sh's fork CSVs (one
# fork per mode per round): score, score per CPU second (when a cpuNanos counter is present) and
# bytes per op (gc.alloc.rate.norm; ratio X/PATCHED, i.e. how many times fewer bytes PATCHED
# allocates). Over the rounds (the pair of forks is the unit) the project's one statistics method,
# ForkStats in jmh-benchmarks (through its ForkStatsCli): geometric mean, 95% Student t interval on
# the log scale, flagged under five rounds. awk only pairs the forks.
# Usage: ratios.sh DIR   (DIR holds rNNN-MODE.csv)
# Needs java and a benchmarks jar with ForkStatsCli: JMH_JAR, else the project's
# jmh-benchmarks/target/benchmarks.jar.
set -euo pipefail
dir=$1
root=$(cd "$(dirname "$0")/../../../.." && pwd)
jar=${JMH_JAR:-$root/jmh-benchmarks/target/benchmarks.jar}
[[ -f $jar ]] || { echo "ratios.sh: no jar at $jar (set JMH_JAR or build jmh-benchmarks)" >&2; exit 2; }
java_cmd=java
[[ -n ${JAVA_HOME:-} ]] && java_cmd="$JAVA_HOME/bin/java"
pairs=$(mktemp)
trap 'rm -f "$pairs"' EXIT
for f in "$dir"/r[0-9][0-9][0-9]-*.csv; do
  b=$(basename "$f" .csv); r=${b%%-*}; m=${b#*-}
  awk -F, -v r="${r#r}" -v m="$m" '
    NR > 1 && $1 !~ /:/ { score = $5 }
    $1 ~ /:cpuNanos"$/ { cpu = $5 }
    $1 ~ /:gc.alloc.rate.norm"$/ { bytes = $5 }
    END { printf "%d\t%s\t%s\t%s\t%s\n", r, m, score, cpu, bytes }' "$f"
done | awk -F'\t' -v pairs="$pairs" '
  { sc[$1, $2] = $3; cp[$1, $2] = $4; by[$1, $2] = $5; if ($1 > maxr) maxr = $1 }
  END {
    printf "| round | mode | score | per CPU s | B/op |\n|---:|---|---:|---:|---:|\n"
    for (r = 1; r <= maxr; r++) for (k = 1; k <= 3; k++) {
      mo = k == 1 ? "BASELINE" : k == 2 ? "PATCHED" : "UPSTREAM"
      if (sc[r, mo] == "") continue
      printf "| %d | %s | %.2f | %s | %.0f |\n", r, mo, sc[r, mo],
        cp[r, mo] == "" ? "-" : sprintf("%.2f", sc[r, mo] / (cp[r, mo] / 1e9)), by[r, mo]
    }
    printf "" > pairs
    split("BASELINE UPSTREAM", other, " ")
    for (o = 1; o <= 2; o++) {
      q = other[o]
      for (r = 1; r <= maxr; r++) {
        if (sc[r, "PATCHED"] == "" || sc[r, q] == "") continue
        printf "PATCHED / %s, score\t%.10g\n", q, sc[r, "PATCHED"] / sc[r, q] > pairs
        if (cp[r, "PATCHED"] != "" && cp[r, q] != "")
          printf "PATCHED / %s, per CPU second\t%.10g\n", q,
            (sc[r, "PATCHED"] / cp[r, "PATCHED"]) / (sc[r, q] / cp[r, q]) > pairs
        if (by[r, "PATCHED"] > 0 && by[r, q] > 0)
          printf "%s B/op / PATCHED B/op\t%.10g\n", q, by[r, q] / by[r, "PATCHED"] > pairs
      }
    }
    printf "\n"
  }'
# One row per label, in the order the labels first appear (score, per CPU second, B/op).
"$java_cmd" -cp "$jar" dev.hbasepatches.jmh.report.ForkStatsCli <"$pairs"
