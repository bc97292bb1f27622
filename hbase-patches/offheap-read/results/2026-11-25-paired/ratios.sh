#!/usr/bin/env bash
# Per-round ratios PATCHED/BASELINE and PATCHED/UPSTREAM from paired-forks.sh's fork CSVs (one
# fork per mode per round): score, score per CPU second (when a cpuNanos counter is present) and
# bytes per op (gc.alloc.rate.norm; ratio X/PATCHED, i.e. how many times fewer bytes PATCHED
# allocates). Mean and 95% Student-t interval over rounds, as dev-support/paired-forks.sh does.
# Usage: ratios.sh DIR   (DIR holds rNNN-MODE.csv)
set -euo pipefail
dir=$1
for f in "$dir"/r[0-9][0-9][0-9]-*.csv; do
  b=$(basename "$f" .csv); r=${b%%-*}; m=${b#*-}
  awk -F, -v r="${r#r}" -v m="$m" '
    NR > 1 && $1 !~ /:/ { score = $5 }
    $1 ~ /:cpuNanos"$/ { cpu = $5 }
    $1 ~ /:gc.alloc.rate.norm"$/ { bytes = $5 }
    END { printf "%d\t%s\t%s\t%s\t%s\n", r, m, score, cpu, bytes }' "$f"
done | awk -F'\t' '
  function tq(df) {
    split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", t, " ")
    return df > 10 ? 2.228 : t[df]
  }
  function stats(label, n, x,    i, m, s, h) {
    if (n < 2) { printf "| %s | %d | - | - |\n", label, n; return }
    m = 0; for (i = 1; i <= n; i++) m += x[i]; m /= n
    s = 0; for (i = 1; i <= n; i++) s += (x[i] - m) ^ 2; s = sqrt(s / (n - 1))
    h = tq(n - 1) * s / sqrt(n)
    printf "| %s | %d | %.3f | %.3f to %.3f |\n", label, n, m, m - h, m + h
  }
  { sc[$1, $2] = $3; cp[$1, $2] = $4; by[$1, $2] = $5; if ($1 > maxr) maxr = $1 }
  END {
    printf "| round | mode | score | per CPU s | B/op |\n|---:|---|---:|---:|---:|\n"
    for (r = 1; r <= maxr; r++) for (k = 1; k <= 3; k++) {
      mo = k == 1 ? "BASELINE" : k == 2 ? "PATCHED" : "UPSTREAM"
      if (sc[r, mo] == "") continue
      printf "| %d | %s | %.2f | %s | %.0f |\n", r, mo, sc[r, mo],
        cp[r, mo] == "" ? "-" : sprintf("%.2f", sc[r, mo] / (cp[r, mo] / 1e9)), by[r, mo]
    }
    printf "\n| ratio | rounds | mean | 95%% interval |\n|---|---:|---:|---|\n"
    split("BASELINE UPSTREAM", other, " ")
    for (o = 1; o <= 2; o++) {
      q = other[o]; n1 = n2 = n3 = 0; delete a; delete b; delete c
      for (r = 1; r <= maxr; r++) {
        if (sc[r, "PATCHED"] == "" || sc[r, q] == "") continue
        a[++n1] = sc[r, "PATCHED"] / sc[r, q]
        if (cp[r, "PATCHED"] != "" && cp[r, q] != "")
          b[++n2] = (sc[r, "PATCHED"] / cp[r, "PATCHED"]) / (sc[r, q] / cp[r, q])
        if (by[r, "PATCHED"] > 0 && by[r, q] != "") c[++n3] = by[r, q] / by[r, "PATCHED"]
      }
      stats("PATCHED / " q ", score", n1, a)
      stats("PATCHED / " q ", per CPU second", n2, b)
      stats(q " B/op / PATCHED B/op", n3, c)
    }
  }'
