#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0
#
# Summarises the forks of run.sh (OUTDIR/fork-*.tsv, columns: regions shape mode rows
# planRegions scannedRegions rpcs meanMicros queries) with the project's ForkStats
# (ForkStatsCli: one ratio per fork, geometric mean, 95% Student t interval over forks).
# Usage: JMH_JAR=/path/benchmarks.jar summarize.sh OUTDIR > OUTDIR/summary.md
set -euo pipefail
dir=$1
jar=${JMH_JAR:?JMH_JAR must name a benchmarks jar (ForkStatsCli)}
files=("$dir"/fork-*.tsv)
echo "# Minicluster: regions scanned, RPCs and latency per mode"
echo
echo "Forks: ${#files[@]} ($(cd "$dir" && ls fork-*.tsv | tr '\n' ' '))"
echo
echo "## Counts (per query; identical in every fork unless flagged)"
echo
echo "| regions | shape | mode | rows | regions planned | regions scanned | RPCs | mean latency over forks (us) |"
echo "|---:|---|---|---:|---:|---:|---:|---:|"
awk -F'\t' '{k=$1"\t"$2"\t"$3; c=$4"/"$5"/"$6"/"$7; if (k in cnt && cnt[k] != c) var[k]=1;
  if (!(k in cnt)) {cnt[k]=c; order[++n]=k}; sum[k]+=$8; nf[k]++}
  END {for (i=1;i<=n;i++) {k=order[i]; split(k,a,"\t"); split(cnt[k],b,"/");
    printf "| %s | %s | %s | %s | %s | %s | %s%s | %.0f |\n", a[1],a[2],a[3],b[1],b[2],b[3],b[4],
      (k in var ? " (varies)" : ""), sum[k]/nf[k]}}' "${files[@]}"
echo
echo "## PATCHED asks exactly UPSTREAM's regions"
echo
awk -F'\t' '{k=FILENAME"\t"$1"\t"$2; if ($3=="PATCHED") p[k]=$5"/"$6; if ($3=="UPSTREAM") u[k]=$5"/"$6;
  if (!(k in r)) r[k]=$4; else if (r[k]!=$4) r[k]="differ"}
  END {bad=0; n=0; for (k in p) {n++; if (p[k]!=u[k]) {bad++; print "- differs: " k ": PATCHED " p[k] ", UPSTREAM " u[k]}}
    for (k in r) if (r[k]=="differ") {bad++; print "- rows differ between modes: " k}
    print (bad==0 ? "Equal in all " n " (fork, regions, shape) cases, planned and scanned; rows equal in every mode." : bad " cases differ.")}' "${files[@]}"
echo
echo "## Latency ratios (ForkStats over forks; > 1: the second mode is faster)"
echo
{
  for f in "${files[@]}"; do
    awk -F'\t' '{t[$1"\t"$2"\t"$3]=$8; R[$1]=1; S[$2]=1}
      END {for (n in R) for (s in S) {
        printf "%s regions %s: UPSTREAM / PATCHED latency\t%.6f\n", n, s, t[n"\t"s"\tUPSTREAM"]/t[n"\t"s"\tPATCHED"];
        printf "%s regions %s: BASELINE / PATCHED latency\t%.6f\n", n, s, t[n"\t"s"\tBASELINE"]/t[n"\t"s"\tPATCHED"]}}' "$f"
  done
} | sort -t$'\t' -k1,1 -s -n | java -cp "$jar" dev.hbasepatches.jmh.report.ForkStatsCli --target 1.0
echo
echo "## Growth with the region count (per fork: the ratio at the most regions over the fewest)"
echo
{
  for f in "${files[@]}"; do
    awk -F'\t' '{t[$1"\t"$2"\t"$3]=$8; S[$2]=1; if (min=="" || $1+0<min) min=$1+0; if ($1+0>max) max=$1+0}
      END {for (s in S) {
        printf "%s: BASELINE/PATCHED at %d over at %d\t%.6f\n", s, max, min,
          (t[max"\t"s"\tBASELINE"]/t[max"\t"s"\tPATCHED"])/(t[min"\t"s"\tBASELINE"]/t[min"\t"s"\tPATCHED"]);
        printf "%s: BASELINE latency at %d over at %d\t%.6f\n", s, max, min, t[max"\t"s"\tBASELINE"]/t[min"\t"s"\tBASELINE"];
        printf "%s: PATCHED latency at %d over at %d\t%.6f\n", s, max, min, t[max"\t"s"\tPATCHED"]/t[min"\t"s"\tPATCHED"]}}' "$f"
  done
} | sort -t$'\t' -k1,1 -s | java -cp "$jar" dev.hbasepatches.jmh.report.ForkStatsCli --target 1.0
