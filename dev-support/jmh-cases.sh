#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one or more contributor license
# agreements; and to You under the Apache License, Version 2.0.
#
# Runs one benchmark once per case, so that a case's three modes (BASELINE, PATCHED, UPSTREAM)
# run back to back instead of minutes apart: on a shared or noisy machine that is what keeps the
# PATCHED/BASELINE and PATCHED/UPSTREAM ratios honest. Then renders one merged report.

set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: dev-support/jmh-cases.sh [--out DIR] BENCHMARK PARAM=v1,v2 [PARAM=v1,v2 ...] [-- JMH options]

Runs BENCHMARK (a JMH regex) once for every combination of the listed params; all values of
every param not listed (notably mode) run inside each of those runs. Results go to
DIR/case-*.json (default jmh-benchmarks/target/jmh-cases), the report to DIR/reports.

Environment: JMH_JAR runs a copy of the benchmarks jar (so a rebuild during a long run cannot
change it under the forks); JAVA_HOME picks the JVM; MVN overrides the Maven command.

Example (what seek-skip's PATCH.md quotes):
  dev-support/jmh-cases.sh SeekSkipScanBenchmark \
    shape=timerangeMiss,oneColumnOfTen,oneVersionOfTen,deletedColumns,fullScan,wideRowsManyVersions \
    files=1,4 -- -f 2 -wi 3 -w 2s -i 5 -r 2s
USAGE
}

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/jmh-benchmarks/target/jmh-cases"
if [[ $# -gt 0 && $1 == --out ]]; then
  out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
  shift 2
fi
if [[ $# -lt 2 || $1 == -h || $1 == --help ]]; then
  usage
  [[ $# -gt 0 && ($1 == -h || $1 == --help) ]] && exit 0
  exit 2
fi
bench=$1
shift
params=()
while [[ $# -gt 0 && $1 != -- ]]; do
  if [[ $1 != *=* ]]; then
    echo "jmh-cases: expected PARAM=v1,v2 but got '$1'" >&2
    exit 2
  fi
  params+=("$1")
  shift
done
[[ $# -gt 0 && $1 == -- ]] && shift
jmh_opts=("$@")

jar=${JMH_JAR:-$root/jmh-benchmarks/target/benchmarks.jar}
if [[ ! -f $jar && -z ${JMH_JAR:-} ]]; then
  (cd "$root" && ${MVN:-mvn} -q -B -pl jmh-benchmarks -am package -DskipTests)
fi
java_cmd=java
[[ -n ${JAVA_HOME:-} ]] && java_cmd="$JAVA_HOME/bin/java"

# The cartesian product of the listed params, as lines of "-p a=x -p b=y".
cases=("")
for p in "${params[@]}"; do
  name=${p%%=*}
  IFS=, read -r -a values <<<"${p#*=}"
  next=()
  for c in "${cases[@]}"; do
    for v in "${values[@]}"; do
      next+=("$c -p $name=$v")
    done
  done
  cases=("${next[@]}")
done

mkdir -p "$out"
rm -f "$out"/case-*.json
i=0
for c in "${cases[@]}"; do
  i=$((i + 1))
  file="$out/case-$(printf '%03d' "$i").json"
  echo "== case $i/${#cases[@]}:$c"
  # shellcheck disable=SC2086 # $c is a list of -p options built above
  "$java_cmd" -jar "$jar" "$bench" $c -foe true -rf json -rff "$file" "${jmh_opts[@]}"
done
"$java_cmd" -cp "$jar" dev.hbasepatches.jmh.report.ReportWriter "$out"/case-*.json "$out/reports"
