#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# Compares the values of one JMH param (usually mode) in paired single forks: round after round,
# one fork per value, so that drift on a shared machine (other builds, thermal, the host) hits
# every value alike. Odd rounds run the values in the order given, even rounds in reverse
# (A B, B A, ...), which also cancels a drift that is linear in time. Each fork holds the lock
# only while it runs, so others can take turns. The summary gives, per value against the first,
# the ratio of every round's pair and, over the rounds (the pair of forks is the unit), the
# project's one statistics method: ForkStats (jmh-benchmarks) through its ForkStatsCli, geometric
# mean with a 95% Student t interval on the log scale and a flag under five pairs.
# Needs bash, flock, awk and java with the benchmarks jar.

set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: dev-support/paired-forks.sh [options] BENCHMARK PARAM=A,B[,C...] [-- JMH options]

Runs `java -jar JAR BENCHMARK -p PARAM=v -f 1 ...` once per value per round and prints the pair
ratios (v / A) per round, then their geometric mean and 95% interval over rounds (ForkStats). BENCHMARK is a JMH regex that must select
one benchmark with one set of params besides PARAM (one primary score per fork).

Options:
  --rounds N     rounds to run (default 4)
  --from R       number the first round R (default 1), to add rounds to an earlier run's DIR
  --out DIR      where forks' CSV results and summary.md go
                 (default jmh-benchmarks/target/paired-forks)
  --lock FILE    lock held around each fork (default /tmp/hbasepatches-jmh.lock; 'none': no lock)
  --cpu NAME     a secondary metric holding CPU nanoseconds in the primary score's unit (e.g. the
                 cpuNanos counter of an ops/s benchmark): also compares score per CPU second
  --stats-only   run nothing; summarize the forks already in DIR (still needs the jar)
  --target R     judge every ratio against R: met / not met / inconclusive
  -h, --help     this help

Environment: JMH_JAR the benchmarks jar (default jmh-benchmarks/target/benchmarks.jar; copy it
first for long runs), JAVA_HOME picks the JVM.

Example (quotas PATCH.md):
  JMH_JAR=/tmp/bench.jar dev-support/paired-forks.sh --rounds 6 --cpu cpuNanos \
    ThrottledUsersBenchmark mode=BASELINE,PATCHED -- -p limit=-1 -wi 6 -w 10s -i 10 -r 5s
USAGE
}

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/jmh-benchmarks/target/paired-forks"
rounds=4
from=1
lock=/tmp/hbasepatches-jmh.lock
cpu=""
target=""
stats_only=false
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --out) mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --lock) lock=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --stats-only) stats_only=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) break ;;
  esac
done
if [[ $# -lt 2 || $2 != *=*,* ]]; then
  usage
  exit 2
fi
bench=$1
param=${2%%=*}
IFS=, read -r -a values <<<"${2#*=}"
shift 2
[[ $# -gt 0 && $1 == -- ]] && shift
jmh_opts=("$@")
[[ $rounds =~ ^[1-9][0-9]*$ && $from =~ ^[1-9][0-9]*$ ]] ||
  { echo "paired-forks: --rounds and --from need a number" >&2; exit 2; }

jar=${JMH_JAR:-$root/jmh-benchmarks/target/benchmarks.jar}
java_cmd=java
[[ -n ${JAVA_HOME:-} ]] && java_cmd="$JAVA_HOME/bin/java"
mkdir -p "$out"

[[ -f $jar ]] || { echo "paired-forks: no jar at $jar (build jmh-benchmarks first)" >&2; exit 2; }
if ! $stats_only; then
  for ((r = from; r < from + rounds; r++)); do
    order=("${values[@]}")
    if ((r % 2 == 0)); then
      order=()
      for ((k = ${#values[@]} - 1; k >= 0; k--)); do order+=("${values[k]}"); done
    fi
    for v in "${order[@]}"; do
      file=$(printf '%s/r%03d-%s.csv' "$out" "$r" "$v")
      echo "== round $r ($((r - from + 1)) of $rounds): $param=$v ($(date -u +%H:%M:%S) UTC)"
      cmd=("$java_cmd" -jar "$jar" "$bench" -p "$param=$v" "${jmh_opts[@]}" -f 1 -foe true
        -rf csv -rff "$file.tmp")
      if [[ $lock == none ]]; then
        "${cmd[@]}"
      else
        flock "$lock" "${cmd[@]}"
      fi
      mv "$file.tmp" "$file"
    done
  done
fi

# One line per fork: round, value, primary score, CPU metric (or empty). JMH's CSV quotes text
# fields; secondary metrics are rows named BENCHMARK:METRIC.
forks=$out/forks.tsv
: >"$forks"
for f in "$out"/r[0-9][0-9][0-9]-*.csv; do
  [[ -f $f ]] || continue
  base=$(basename "$f" .csv)
  r=$((10#${base:1:3}))
  v=${base:5}
  awk -F, -v r="$r" -v v="$v" -v cpu="$cpu" '
    NR == 1 { next }
    { name = $1; gsub(/"/, "", name) }
    name !~ /:/ { if (primary == "") primary = $5; else extra++ }
    cpu != "" && name ~ (":" cpu "$") { c = $5 }
    END {
      if (extra) printf "paired-forks: %s has %d more primary rows; using the first\n", FILENAME,
        extra > "/dev/stderr"
      printf "%d\t%s\t%s\t%s\n", r, v, primary, c
    }' "$f" >>"$forks"
done

summary=$out/summary.md
pairs=$out/pairs.tsv
awk -F'\t' -v vals="$(IFS=,; echo "${values[*]}")" -v cpu="$cpu" -v pairs="$pairs" '
  BEGIN { nv = split(vals, v, ","); printf "" > pairs }
  { score[$1, $2] = $3; cpuv[$1, $2] = $4; if ($1 > maxr) maxr = $1 }
  END {
    printf "Forks (score%s):\n\n| round |", cpu != "" ? "; per CPU second = score / (" cpu " / 1e9)" : ""
    for (k = 1; k <= nv; k++) printf " %s |%s", v[k], cpu != "" ? " per CPU s |" : ""
    for (k = 2; k <= nv; k++) printf " %s / %s |%s", v[k], v[1], cpu != "" ? " per CPU s |" : ""
    printf "\n|---:|"
    for (k = 1; k <= nv; k++) printf "---:|%s", cpu != "" ? "---:|" : ""
    for (k = 2; k <= nv; k++) printf "---:|%s", cpu != "" ? "---:|" : ""
    printf "\n"
    for (r = 1; r <= maxr; r++) {
      printf "| %d |", r
      for (k = 1; k <= nv; k++) {
        s = score[r, v[k]]
        printf " %s |", s == "" ? "-" : sprintf("%.1f", s)
        if (cpu != "") printf " %s |", (s == "" || cpuv[r, v[k]] == "") ? "-" \
          : sprintf("%.1f", s / (cpuv[r, v[k]] / 1e9))
      }
      for (k = 2; k <= nv; k++) {
        a = score[r, v[1]]; b = score[r, v[k]]
        if (a == "" || b == "") { printf " - |%s", cpu != "" ? " - |" : ""; continue }
        printf " %.4f |", b / a
        # The statistics are ForkStats'"'"'s (below); awk only pairs the forks.
        printf "%s / %s, score\t%.10g\n", v[k], v[1], b / a > pairs
        if (cpu != "") {
          ca = cpuv[r, v[1]]; cb = cpuv[r, v[k]]
          if (ca == "" || cb == "") { printf " - |"; continue }
          printf " %.4f |", (b / cb) / (a / ca)
          printf "%s / %s, per CPU second\t%.10g\n", v[k], v[1], (b / cb) / (a / ca) > pairs
        }
      }
      printf "\n"
    }
  }' "$forks" >"$summary"
{
  printf '\nPair ratios over rounds (ForkStats: the pair of forks is the unit; geometric mean, 95%%'
  printf ' interval on the log scale%s):\n\n' "${target:+, verdict against $target}"
  # One sample per label, in the order the labels first appear (value order, score first).
  "$java_cmd" -cp "$jar" dev.hbasepatches.jmh.report.ForkStatsCli ${target:+--target "$target"} \
    <"$pairs"
} >>"$summary"
cat "$summary"
