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
# Benchmarks one change's upstream series as applied (SERIES) against the HBase release the build
# pins (UPSTREAM), and this project's module (PATCHED) against the same release, both modes in
# every fork (SeriesToggleBenchmark, A B B A blocks), and writes the change's report.

set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: dev-support/series-bench.sh [--forks N] [--sides A:B[,A:B...]] [--cases LIST] [--out DIR] CHANGE

Runs SeriesToggleBenchmark from jmh-benchmarks/target/benchmarks.jar (build it first:
`mvn -B package -DskipTests -pl jmh-benchmarks -am`) for CHANGE's headline cases, each pair of
sides in its own run, N forks each (default 5, the least a ratio is quoted from), holding
/tmp/hbasepatches-jmh.lock so that no two benchmarks run at once. Writes into OUT (default
hbase-patches/CHANGE/results/series): SIDEB-vs-SIDEA.json (JMH), machine.txt, and report.md
(the command, commit, release, the hashes of the series and of the module's src/main, a
summary table and AbbaPairs' blocks per case: B / A above 1 means B does more operations per
second), and copies the summary into the change's PATCH.md between the lines
`<!-- series-report:begin -->` and `<!-- series-report:end -->`.

  CHANGE   seek-skip | row-index | checksum | offheap-read | quotas
  --sides  default UPSTREAM:SERIES,UPSTREAM:PATCHED (checksum: UPSTREAM:SERIES only; its module
           is a class overlay, measured by OverlayBlockReadBenchmark)
  --cases  comma-separated cases for SeriesToggleBenchmark (see its Workloads javadoc)
  --report-only  no benchmark: rewrite report.md (and PATCH.md's summary) from the JSON files
           already in OUT, e.g. after a report format change
USAGE
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/jmh-benchmarks/target/benchmarks.jar"
FORKS=5
SIDES=""
CASES=""
OUT=""
REPORT_ONLY=false
while [ $# -gt 0 ]; do
  case "$1" in
    --forks) FORKS="$2"; shift 2 ;;
    --sides) SIDES="$2"; shift 2 ;;
    --cases) CASES="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --report-only) REPORT_ONLY=true; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
CHANGE="$1"
case "$CHANGE" in
  seek-skip) DEFAULT_CASES="oneVersionOfTen/4,deletedColumns/4" ;;
  row-index) DEFAULT_CASES="randomGet/cached,reverseScan100/cached" ;;
  checksum) DEFAULT_CASES="HEAP,DIRECT,MULTI"; SIDES="${SIDES:-UPSTREAM:SERIES}" ;;
  offheap-read) DEFAULT_CASES="multiGet,scan" ;;
  # The quota path of a Get whose throttle never bites (the series' gain, accuracy, is checked
  # deterministically by SideTest's accuracy case, not benchmarked).
  quotas) DEFAULT_CASES="notBiting" ;;
  *) echo "series-bench.sh: no series benchmark for change '$CHANGE'" \
       "(seek-skip, row-index, checksum, offheap-read, quotas)" >&2; exit 2 ;;
esac
CASES="${CASES:-$DEFAULT_CASES}"
SIDES="${SIDES:-UPSTREAM:SERIES,UPSTREAM:PATCHED}"
[[ "$FORKS" =~ ^[0-9]+$ ]] && [ "$FORKS" -ge 1 ] || { echo "--forks must be a positive number: $FORKS" >&2; exit 2; }
[ -f "$JAR" ] || { echo "no $JAR: build it with mvn -B package -DskipTests -pl jmh-benchmarks -am" >&2; exit 1; }
OUT="${OUT:-$ROOT/hbase-patches/$CHANGE/results/series}"
mkdir -p "$OUT"

targets=""
IFS=',' read -r -a case_list <<<"$CASES"
for c in "${case_list[@]}"; do targets="${targets:+$targets,}$CHANGE:$c"; done

# series_sha names the series measured: the first 16 hex digits of dev-support/series-sha.sh over
# upstream/branch-2.6/*.patch in name order, i.e. a sha256 of the series' diff content only (each
# patch from its first `diff --git` line up to its `-- ` signature line). The mail header, commit
# message, diffstat and signature are not hashed: correcting an author line or rewording a commit
# message leaves the report current, since the code measured is the same. SeriesReportsTest
# computes the same hash and fails when a report's series_sha is not the tree's.
series_diff_sha() {
  local patches
  patches=$(cd "$ROOT/hbase-patches/$CHANGE/upstream/branch-2.6" && ls -- *.patch | LC_ALL=C sort)
  (cd "$ROOT/hbase-patches/$CHANGE/upstream/branch-2.6" && "$ROOT/dev-support/series-sha.sh" $patches) | cut -c1-16
}

# What the run measured: written when it starts, read by the report (also with --report-only).
record_run() {
  local src_sha bench_sha dirty=""
  src_sha="$(cd "$ROOT/hbase-patches/$CHANGE/src/main" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"
  bench_sha="$(cd "$ROOT/jmh-benchmarks/src/main" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"
  git -C "$ROOT" diff --quiet HEAD -- "hbase-patches/$CHANGE/src" "hbase-patches/$CHANGE/upstream" jmh-benchmarks/src \
    && [ -z "$(git -C "$ROOT" ls-files --others --exclude-standard -- hbase-patches/"$CHANGE"/src jmh-benchmarks/src)" ] \
    || dirty=" (with uncommitted changes)"
  {
    echo "series_sha=$(series_diff_sha)"
    echo "src_sha=$src_sha"
    echo "bench_sha=$bench_sha"
    echo "commit=$(git -C "$ROOT" rev-parse --short=12 HEAD)$dirty"
    echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  } > "$OUT/run.txt"
}

IFS=',' read -r -a side_list <<<"$SIDES"
jsons=()
for pair in "${side_list[@]}"; do
  a="${pair%%:*}"; b="${pair##*:}"
  jsons+=("$OUT/$b-vs-$a.json")
done

if ! $REPORT_ONLY; then
# The report names the tree's commit and hashes: the jar must be built from that tree.
newer="$(find "$ROOT/jmh-benchmarks/src/main" "$ROOT/hbase-patches/$CHANGE/src/main" \
  "$ROOT/hbase-patches/$CHANGE/upstream/branch-2.6" -type f -newer "$JAR" -print -quit)"
if [ -n "$newer" ]; then
  echo "series-bench.sh: $newer is newer than $JAR; rebuild the jar first" \
    "(mvn -B package -DskipTests -pl jmh-benchmarks -am)" >&2
  exit 1
fi
exec 8>/tmp/hbasepatches-jmh.lock
if ! flock -n 8; then
  echo "waiting for another benchmark to finish (/tmp/hbasepatches-jmh.lock)" >&2
  flock 8
fi

# Forks start from the jar: a copy, so that a rebuild during the run cannot change what runs.
RUN_DIR="$(mktemp -d /tmp/series-bench.XXXXXX)"
trap 'rm -rf "$RUN_DIR"' EXIT
cp "$JAR" "$RUN_DIR/benchmarks.jar"
JAR="$RUN_DIR/benchmarks.jar"
record_run
java -cp "$JAR" dev.hbasepatches.jmh.report.RunMachine "$OUT/machine.txt"
for pair in "${side_list[@]}"; do
  a="${pair%%:*}"; b="${pair##*:}"
  json="$OUT/$b-vs-$a.json"
  java -jar "$JAR" SeriesToggleBenchmark -p "target=$targets" -p "a=$a" -p "b=$b" \
    -f "$FORKS" -foe true -rf json -rff "$json" | tee "$OUT/$b-vs-$a.log" | grep -E '^# (Parameters|A:|B:|first)|Iteration|ERROR|Exception' || true
done
java -cp "$JAR" dev.hbasepatches.jmh.report.RunMachine "$OUT/machine.txt" --end
fi

[ -f "$OUT/run.txt" ] || { echo "no $OUT/run.txt: nothing was run into $OUT" >&2; exit 1; }
run_value() { sed -n "s/^$1=//p" "$OUT/run.txt"; }
series_sha="$(run_value series_sha)"; src_sha="$(run_value src_sha)"; bench_sha="$(run_value bench_sha)"
release="$(unzip -p "$JAR" META-INF/maven/org.apache.hbase/hbase-server/pom.properties 2>/dev/null | sed -n 's/^version=//p')"
{
  echo "# $CHANGE: the upstream series as applied, and the module, against HBase ${release:-?}"
  echo
  echo "Command: \`dev-support/series-bench.sh --forks $FORKS --sides $SIDES --cases $CASES $CHANGE\`"
  echo "(SeriesToggleBenchmark: both sides in every fork, each in a class loader of its own holding"
  echo "a whole HBase; 16 warm-up and 32 measured one-second iterations in A B B A blocks)."
  echo
  echo "- UPSTREAM: HBase ${release:-?} as released (Maven Central), the classes every side starts from."
  echo "- SERIES: the same with hbase-patches/$CHANGE/upstream/branch-2.6 applied to its sources and"
  echo "  compiled (hbase-patches/upstream-patches), its key on; series sha256 $series_sha."
  echo "- PATCHED: this project's module in PATCHED mode on the same release; module src/main"
  echo "  sha256 $src_sha; jmh-benchmarks src/main sha256 $bench_sha."
  echo "- Commit: $(run_value commit); started $(run_value started)"
  m() { sed -n "s/^$1=//p" "$OUT/machine.txt" | sed 's/\\//g'; }
  echo "- Machine: $(m cpu), $(m cores) cores, $(( $(m memTotalKb) / 1048576 )) GiB, Java $(m java);"
  echo "  $(m start.utc) to $(m end.utc); load average (1, 5, 15 min) $(m start.loadavg) at the"
  echo "  start, $(m end.loadavg) at the end (builds and tests ran beside it at a lower CPU priority)"
  echo
  echo "B / A per fork is the geometric mean of its blocks; over forks, a 95% Student t interval on"
  echo "the log scale. Above 1 means B does more operations per second than A (per CPU second: more"
  echo "operations per second of the process's CPU). The verdict is the interval against 1."
  echo
  echo "## Summary"
  echo
  java -cp "$JAR" dev.hbasepatches.jmh.report.AbbaPairs --summary "${jsons[@]}"
  echo "## Every block"
  echo
  java -cp "$JAR" dev.hbasepatches.jmh.report.AbbaPairs "${jsons[@]}"
} > "$OUT/report.md"
echo "wrote $OUT/report.md"

# The change's PATCH.md quotes the summary between these markers; SeriesReportsTest keeps the two
# in step. Only the default output folder is the change's report.
patch_md="$ROOT/hbase-patches/$CHANGE/PATCH.md"
if [ "$OUT" = "$ROOT/hbase-patches/$CHANGE/results/series" ] && grep -q '^<!-- series-report:begin -->$' "$patch_md"; then
  summary="$(awk '/^## Summary$/{on=1; next} /^## Every block$/{on=0} on' "$OUT/report.md")"
  awk -v summary="$summary" '
    /^<!-- series-report:begin -->$/ { print; print summary; skip=1; next }
    /^<!-- series-report:end -->$/ { skip=0 }
    !skip' "$patch_md" > "$patch_md.tmp" && mv "$patch_md.tmp" "$patch_md"
  echo "updated the series summary in $patch_md"
fi
