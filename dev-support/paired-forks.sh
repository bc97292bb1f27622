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
# the ratio of every round's pair with its mean and 95% interval (Student t over rounds).
# Needs bash, flock and awk only.

set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: dev-support/paired-forks.sh [options] BENCHMARK PARAM=A,B[,C...] [-- JMH options]

Runs `java -jar JAR BENCHMARK -p PARAM=v -f 1 ...` once per value per round and prints the pair
ratios (v / A) per round with mean and 95% interval. BENCHMARK is a JMH regex that must select
one benchmark with one set of params besides PARAM (one primary score per fork).

Options:
  --rounds N     rounds to run (default 4)
  --from R       number the first round R (default 1), to add rounds to an earlier run's DIR
  --out DIR      where forks' CSV results and summary.md go
                 (default jmh-benchmarks/target/paired-forks)
  --lock FILE    lock held around each fork (default /tmp/hbasepatches-jmh.lock; 'none': no lock)
  --cpu NAME     a secondary metric holding CPU nanoseconds in the primary score's unit (e.g. the
                 cpuNanos counter of an ops/s benchmark): also compares score per CPU second
  --stats-only   run nothing; summarize the forks already in DIR
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
stats_only=false
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --out) mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --lock) lock=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
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

if ! $stats_only; then
  [[ -f $jar ]] || { echo "paired-forks: no jar at $jar (build jmh-benchmarks first)" >&2; exit 2; }
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
awk -F'\t' -v vals="$(IFS=,; echo "${values[*]}")" -v param="$param" -v cpu="$cpu" '
  function tq(df) {
    # Two-sided 95% Student t quantiles; beyond 30 degrees of freedom 30s value (conservative).
    split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 " \
      "2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 " \
      "2.048 2.045 2.042", t, " ")
    return df > 30 ? t[30] : t[df]
  }
  function stats(label, n, x,    i, m, s, se, h) {
    if (n == 0) { printf "| %s | no complete pairs |\n", label; return }
    m = 0; for (i = 1; i <= n; i++) m += x[i]; m /= n
    s = 0; for (i = 1; i <= n; i++) s += (x[i] - m) ^ 2
    if (n > 1) { s = sqrt(s / (n - 1)); se = s / sqrt(n); h = tq(n - 1) * se }
    if (n > 1) printf "| %s | %d | %.4f | %.4f | %.4f | %.4f to %.4f |\n", label, n, m, s, se,
      m - h, m + h
    else printf "| %s | 1 | %.4f | - | - | - |\n", label, m
  }
  BEGIN { nv = split(vals, v, ",") }
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
        ratio = b / a; n[k]++; rr[k, n[k]] = ratio
        printf " %.4f |", ratio
        if (cpu != "") {
          ca = cpuv[r, v[1]]; cb = cpuv[r, v[k]]
          if (ca == "" || cb == "") { printf " - |"; continue }
          cr = (b / cb) / (a / ca); nc[k]++; cc[k, nc[k]] = cr
          printf " %.4f |", cr
        }
      }
      printf "\n"
    }
    printf "\nPair ratios over rounds (mean, sample sd, standard error, 95%% interval):\n\n"
    printf "| ratio (%s) | pairs | mean | sd | se | 95%% interval |\n|---|---:|---:|---:|---:|---|\n",
      param
    for (k = 2; k <= nv; k++) {
      delete x; for (i = 1; i <= n[k]; i++) x[i] = rr[k, i]
      stats(v[k] " / " v[1] ", score", n[k] + 0, x)
      if (cpu != "") {
        delete x; for (i = 1; i <= nc[k]; i++) x[i] = cc[k, i]
        stats(v[k] " / " v[1] ", per CPU second", nc[k] + 0, x)
      }
    }
  }' "$forks" | tee "$summary"
