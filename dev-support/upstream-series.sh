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
# Checks each change's upstream series the way a committer would, from upstream's source:
# for every target branch directory of a change (HBase: upstream/master, upstream/branch-2.6;
# Phoenix: upstream/master, upstream/5.2) it makes a fresh worktree of the target ref in the
# given upstream checkout, `git am`s the series, builds the modules the series touches, runs the
# series' tests and the upstream test classes that cover the touched code (upstream/<target>/
# tests.txt), then checkstyle (violations in the touched files) and spotless (the touched files).
#
#   upstream-series.sh [options] [CHANGE[:TARGET]...]
#
# It prints one line per series:
#   RESULT <change> <target> <ref-commit>: applied yes | built yes | tests 57/57 | style clean
# and writes upstream/<target>/check.txt (what ran, on which commit, the counts) and
# upstream/<target>/check.log (the Maven summary lines, test counts and any error) into the change,
# plus the whole Maven output under --work.
#
# Options:
#   --hbase DIR        an HBase git repository carrying upstream's branches (a clone of
#                      apache/hbase, or a fork with its branches); needed for HBase changes
#   --phoenix DIR      a Phoenix git repository (a clone of apache/phoenix)
#   --ref TARGET=REF   the ref checked for TARGET (default: origin/TARGET if the repository has
#                      it, else TARGET), e.g. --ref branch-2.6=upstream/branch-2.6
#   --work DIR         worktrees and full logs (default target/upstream-series under the project)
#   --maven-args ARGS  extra Maven arguments for every HBase build, e.g. "-o"
#   --phoenix-maven-args ARGS  the same for Phoenix builds, e.g. the HBase profile Phoenix builds
#                      against: "-Dhbase.profile=2.6 -Dhbase-2.6.runtime.version=2.6.4-hadoop3"
#   --thirdparty V     build HBase with hbase-thirdparty V (see BUILDING.md, "Checking the series
#                      from upstream's source": needed only where the registry lacks the version
#                      the branch names; it also drops one @Override the older version cannot
#                      satisfy, as an uncommitted edit after `git am`)
#   --protobuf V       internal.protobuf.version to go with --thirdparty
#   --spotless V       spotless-maven-plugin version for the style check (HBase's 2.44.4 fetches
#                      Eclipse's formatter from download.eclipse.org; 2.30.0 takes it from Maven
#                      Central: BUILDING.md)
#   --no-tests         apply and build only
#   --no-style         skip checkstyle and spotless
#   --no-write         print the RESULT lines; do not write check.txt / check.log into the change
#   --keep             keep the worktrees (default: remove each after its check)
#   --summary          print the RESULT lines of every committed check.txt and exit
#
# A committer with full access to Maven Central needs only --hbase / --phoenix.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF="$ROOT/dev-support/$(basename "$0")"

die() { echo "upstream-series: $*" >&2; exit 2; }
say() { echo "upstream-series: $*" >&2; }

HBASE_REPO=""
PHOENIX_REPO=""
declare -A REF_OVERRIDE=()
WORK="$ROOT/target/upstream-series"
MAVEN_ARGS=""
PHOENIX_MAVEN_ARGS=""
THIRDPARTY=""
PROTOBUF=""
SPOTLESS=""
RUN_TESTS=1
RUN_STYLE=1
WRITE=1
KEEP=0
SELECTED=()

usage() { sed -n '/^# Checks each change/,/^set -uo/p' "$SELF" | sed '$d' | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --hbase) HBASE_REPO=$(cd "$2" && pwd) || die "--hbase $2: no such directory"; shift 2 ;;
    --phoenix) PHOENIX_REPO=$(cd "$2" && pwd) || die "--phoenix $2: no such directory"; shift 2 ;;
    --ref) [[ "$2" == *=* ]] || die "--ref takes TARGET=REF, got '$2'"
      REF_OVERRIDE["${2%%=*}"]="${2#*=}"; shift 2 ;;
    --work) mkdir -p "$2" && WORK=$(cd "$2" && pwd); shift 2 ;;
    --maven-args) MAVEN_ARGS="$2"; shift 2 ;;
    --phoenix-maven-args) PHOENIX_MAVEN_ARGS="$2"; shift 2 ;;
    --thirdparty) THIRDPARTY="$2"; shift 2 ;;
    --protobuf) PROTOBUF="$2"; shift 2 ;;
    --spotless) SPOTLESS="$2"; shift 2 ;;
    --no-tests) RUN_TESTS=0; shift ;;
    --no-style) RUN_STYLE=0; shift ;;
    --no-write) WRITE=0; shift ;;
    --keep) KEEP=1; shift ;;
    --summary) MODE=summary; shift ;;
    -h|--help) usage; exit 0 ;;
    --*) die "unknown option $1 (see --help)" ;;
    *) SELECTED+=("$1"); shift ;;
  esac
done

# Every (change, target) pair that has a series: "<change dir> <target>".
all_series() {
  local d t
  for d in "$ROOT"/hbase-patches/*/upstream "$ROOT"/phoenix-patches/*/upstream; do
    [ -d "$d" ] || continue
    for t in "$d"/*/; do
      t=${t%/}
      ls "$t"/*.patch >/dev/null 2>&1 && echo "$(dirname "$d") $(basename "$t")"
    done
  done
  return 0
}

if [ "${MODE:-}" = summary ]; then
  for f in "$ROOT"/hbase-patches/*/upstream/*/check.txt "$ROOT"/phoenix-patches/*/upstream/*/check.txt; do
    [ -f "$f" ] && grep '^RESULT ' "$f"
  done
  exit 0
fi

PAIRS=()
while read -r dir target; do
  [ -n "$dir" ] || continue
  name=$(basename "$dir")
  if [ ${#SELECTED[@]} -eq 0 ]; then PAIRS+=("$dir $target"); continue; fi
  for s in "${SELECTED[@]}"; do
    if [ "$s" = "$name" ] || [ "$s" = "$name:$target" ]; then PAIRS+=("$dir $target"); fi
  done
done < <(all_series)
[ ${#PAIRS[@]} -gt 0 ] || die "no series matched ${SELECTED[*]:-(none found)}: expected <module>/upstream/<target>/*.patch"

mkdir -p "$WORK/logs"

# The ref a target is checked on, resolved in REPO to a commit.
resolve_ref() {
  local repo="$1" target="$2" ref
  ref="${REF_OVERRIDE[$target]:-}"
  if [ -z "$ref" ]; then
    if git -C "$repo" rev-parse -q --verify "origin/$target^{commit}" >/dev/null; then
      ref="origin/$target"
    else
      ref="$target"
    fi
  fi
  git -C "$repo" rev-parse -q --verify "$ref^{commit}" >/dev/null || return 1
  echo "$ref"
}

# The hash of the series' diff content (dev-support/series-sha.sh: each patch from its first
# `diff --git` line to its `-- ` signature, so not the mail header or the commit message), the
# patches in name order: check.txt records it, and the build checks that the committed check.txt
# still describes the committed series (upstream-patches.sh fresh). What this script checks
# (applies, builds, tests, style) depends on the diffs only.
series_sha() { "$ROOT/dev-support/series-sha.sh" $(printf '%s\n' "$@" | LC_ALL=C sort); }
# The hash of a file as it is (tests.txt).
file_sha() { sha256sum <"$1" | cut -c1-64; }
# Maven's terminal colour codes, which it writes even in batch mode, out of the committed files.
no_color() { sed 's/\x1b\[[0-9;]*m//g'; }

# Surefire's report files under the given modules: "<run> <failures> <errors> <skipped> <classes>".
count_tests() {
  local wt="$1"; shift
  local m files
  files=()
  for m in "$@"; do
    for f in "$wt/$m"/target/surefire-reports/TEST-*.xml; do [ -f "$f" ] && files+=("$f"); done
  done
  if [ ${#files[@]} -eq 0 ]; then echo "0 0 0 0 -"; return; fi
  python3 - "${files[@]}" <<'PY'
import sys, xml.etree.ElementTree as ET
run = fail = err = skip = 0
per = []
for f in sys.argv[1:]:
    r = ET.parse(f).getroot()
    t, fa, e, s = (int(r.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
    run += t; fail += fa; err += e; skip += s
    per.append("%s %d/%d" % (r.get("name").rsplit(".", 1)[-1], t - fa - e - s, t))
print(run, fail, err, skip, ", ".join(sorted(per)))
PY
}

# Checkstyle errors reported on the lines the series adds or changes (upstream's files carry
# violations of their own, which its precommit also leaves to a before/after comparison).
# $1 worktree, $2 the base commit; the report files are the modules' checkstyle-result.xml.
checkstyle_errors() {
  local wt="$1" base="$2"
  (cd "$wt" && git diff -U0 "$base" HEAD -- '*.java') | python3 -c '
import sys, os, re, glob, xml.etree.ElementTree as ET
wt = sys.argv[1]
added, cur = {}, None
for line in sys.stdin:
    if line.startswith("+++ "):
        cur = line[6:].strip() if line.startswith("+++ b/") else None
        if cur: added.setdefault(cur, set())
    elif line.startswith("@@") and cur:
        m = re.search(r"\+(\d+)(?:,(\d+))?", line)
        start, n = int(m.group(1)), int(m.group(2) or 1)
        added[cur].update(range(start, start + n))
out = []
for report in glob.glob(os.path.join(wt, "*", "target", "checkstyle-result.xml")):
    for f in ET.parse(report).getroot().iter("file"):
        rel = os.path.relpath(f.get("name"), wt)
        for e in f.iter("error"):
            if int(e.get("line", 0)) in added.get(rel, ()):
                out.append("%s:%s: %s" % (rel, e.get("line"), e.get("message")))
print(len(out))
for line in out:
    print(line)
' "$wt"
}

check_one() {
  local dir="$1" target="$2"
  local change repo kind ref commit wt log summary series modules mvn_args tests_csv
  change=$(basename "$dir")
  case "$dir" in
    */phoenix-patches/*) kind=Phoenix; repo="$PHOENIX_REPO" ;;
    *) kind=HBase; repo="$HBASE_REPO" ;;
  esac
  [ -n "$repo" ] || { say "$change $target: no --$(echo "$kind" | tr 'A-Z' 'a-z') repository given, skipped"; return 1; }
  ref=$(resolve_ref "$repo" "$target") || { say "$change $target: no ref '$target' in $repo"; return 1; }
  commit=$(git -C "$repo" rev-parse "$ref^{commit}")
  local cdate
  cdate=$(git -C "$repo" log -1 --format=%cs "$commit")
  series=("$dir/upstream/$target"/*.patch)
  wt="$WORK/wt/$change-$target"
  log="$WORK/logs/$change-$target.log"
  : >"$log"
  local applied=no built=no tests=- style=- nstyle="" spot=""
  local t0 t_build=0 t_tests=0

  git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1
  rm -rf "$wt"
  git -C "$repo" worktree prune
  git -C "$repo" worktree add -q --detach --no-checkout "$wt" "$commit" >>"$log" 2>&1 \
    || { say "$change $target: worktree add failed (see $log)"; return 1; }
  # read-tree + checkout-index rather than `git checkout`: some mirrors of HBase's repository
  # leave out binary test data over 4 MiB that no build reads; checkout-index reports those files
  # and writes every other one, and the index keeps HEAD's trees, so `git am` can commit.
  (cd "$wt" && git read-tree HEAD && { git checkout-index -a -q || true; }) >>"$log" 2>&1 \
    || { say "$change $target: checkout failed (see $log)"; return 1; }

  if (cd "$wt" && git am -q "${series[@]}") >>"$log" 2>&1; then
    applied=yes
  else
    (cd "$wt" && git am --abort) >/dev/null 2>&1
  fi

  if [ $applied = yes ]; then
    local touched
    touched=$(cd "$wt" && git diff --name-only "$commit" HEAD)
    modules=$(echo "$touched" | cut -d/ -f1 | sort -u | paste -sd, -)
    local java_files
    java_files=$(echo "$touched" | grep '\.java$' || true)
    mvn_args=(-B -ntp -s "$ROOT/.mvn/settings.xml")
    # shellcheck disable=SC2206
    if [ "$kind" = HBase ]; then
      [ -n "$MAVEN_ARGS" ] && mvn_args+=($MAVEN_ARGS)
    else
      [ -n "$PHOENIX_MAVEN_ARGS" ] && mvn_args+=($PHOENIX_MAVEN_ARGS)
    fi
    if [ "$kind" = HBase ]; then
      case "$target" in branch-2*) mvn_args+=(-Dhadoop.profile=3.0) ;; esac
      # HBase's surefire runs small and medium tests in its first part and large ones in a second
      # part a plain -Dtest run skips: run every listed class, whatever its size tag.
      mvn_args+=(-Dsurefire.firstPartGroups= -Dsurefire.skipSecondPart=true)
      if [ -n "$THIRDPARTY" ]; then
        mvn_args+=("-Dhbase-thirdparty.version=$THIRDPARTY")
        [ -n "$PROTOBUF" ] && mvn_args+=("-Dinternal.protobuf.version=$PROTOBUF")
        sed -i -E '/@Override/{N;s/[[:space:]]*@Override\n(\s*public long readLong\(int offset\))/\1/}' \
          "$wt/hbase-server/src/main/java/org/apache/hadoop/hbase/ipc/ServerRpcConnection.java"
      fi
    fi
    {
      echo "## mvn ${mvn_args[*]} -pl $modules -DskipTests test-compile"
    } >>"$log"
    t0=$(date +%s)
    if (cd "$wt" && mvn "${mvn_args[@]}" -pl "$modules" -DskipTests test-compile) >>"$log" 2>&1; then
      built=yes
    fi
    t_build=$(( $(date +%s) - t0 ))

    local tests_file="$dir/upstream/$target/tests.txt"
    if [ $built = yes ] && [ $RUN_TESTS = 1 ]; then
      if [ -f "$tests_file" ]; then
        tests_csv=$(grep -v '^\s*#' "$tests_file" | sed 's/[[:space:]]//g' | grep -v '^$' | paste -sd, -)
      else
        tests_csv=""
      fi
      if [ -z "$tests_csv" ]; then
        tests="none listed ($tests_file)"
      else
        echo "## mvn ${mvn_args[*]} -pl $modules test -Dtest=$tests_csv" >>"$log"
        t0=$(date +%s)
        (cd "$wt" && mvn "${mvn_args[@]}" -pl "$modules" test "-Dtest=$tests_csv" \
          -Dsurefire.failIfNoSpecifiedTests=false -DfailIfNoTests=false) >>"$log" 2>&1
        t_tests=$(( $(date +%s) - t0 ))
        local counts run fail err skip per
        IFS=' ' read -r run fail err skip per <<<"$(count_tests "$wt" $(echo "$modules" | tr , ' '))"
        local passed=$(( run - fail - err - skip ))
        tests="$passed/$run"
        [ "$skip" -gt 0 ] && tests="$tests ($skip skipped)"
        [ $(( fail + err )) -gt 0 ] && tests="$tests FAILED ($fail failures, $err errors)"
        local missing=""
        local cls
        for cls in $(echo "$tests_csv" | tr , ' '); do
          echo "$per" | grep -q "\b$cls [0-9]" || missing="$missing $cls"
        done
        [ -n "$missing" ] && tests="$tests; NOT RUN:$missing"
        TEST_DETAIL="$per"
      fi
    fi

    if [ $built = yes ] && [ $RUN_STYLE = 1 ] && [ -n "$java_files" ]; then
      local files_regex
      files_regex=$(echo "$java_files" | sed 's/[.]/\\./g; s/^/.*/' | paste -sd, -)
      echo "## mvn ${mvn_args[*]} -pl $modules spotless:check -DspotlessFiles=$files_regex" >>"$log"
      local spot_args=()
      [ -n "$SPOTLESS" ] && spot_args=("-Dspotless.version=$SPOTLESS")
      if (cd "$wt" && mvn "${mvn_args[@]}" "${spot_args[@]}" -pl "$modules" spotless:check "-DspotlessFiles=$files_regex") >>"$log" 2>&1; then
        spot=clean
      else
        spot="NOT clean"
      fi
      # With -am (a branch whose sibling modules no registry serves, Phoenix 5.2's
      # phoenix-hbase-compat-2.5.4 5.2.2) checkstyle resolves the siblings from the reactor only
      # after compile; Phoenix's parent pom points checkstyle at ${top.dir}, which is one level
      # above the root for the root project itself, so name it.
      local cs_goals=(checkstyle:checkstyle)
      if [[ " ${mvn_args[*]} " == *" -am "* ]]; then
        cs_goals=(compile checkstyle:checkstyle)
        [ "$kind" = Phoenix ] && cs_goals+=("-Dtop.dir=$wt")
      fi
      echo "## mvn ${mvn_args[*]} -pl $modules ${cs_goals[*]}" >>"$log"
      local cs
      if (cd "$wt" && mvn "${mvn_args[@]}" -pl "$modules" "${cs_goals[@]}") >>"$log" 2>&1; then
        cs=$(checkstyle_errors "$wt" "$commit")
        nstyle=$(echo "$cs" | head -1)
        STYLE_DETAIL=$(echo "$cs" | tail -n +2)
      else
        # No report is not zero violations.
        nstyle="NOT RUN (checkstyle:checkstyle failed, see check.log)"
      fi
      if [ "$spot" = clean ] && [ "$nstyle" = 0 ]; then
        style=clean
      else
        style="checkstyle $nstyle, spotless $spot"
      fi
    fi
  fi

  local line="RESULT $change $target ${commit:0:12}: applied $applied | built $built | tests $tests | style $style"
  echo "$line"
  if [ $WRITE = 1 ]; then
    local out="$dir/upstream/$target"
    {
      echo "# dev-support/upstream-series.sh $change:$target"
      echo "target:     $kind $target"
      echo "ref:        $ref = $commit ($cdate)"
      echo "series:     $(for s in "${series[@]}"; do basename "$s"; done | paste -sd' ' -)"
      echo "series-sha256: $(series_sha "${series[@]}")"
      [ -f "$dir/upstream/$target/tests.txt" ] && echo "tests-sha256:  $(file_sha "$dir/upstream/$target/tests.txt")"
      echo "run:        $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(java -version 2>&1 | head -1), $(mvn -B -v 2>/dev/null | head -1 | no_color | sed 's/ (.*//')"
      [ -n "$THIRDPARTY" ] && [ "$kind" = HBase ] && echo "workaround: hbase-thirdparty $THIRDPARTY, internal protobuf ${PROTOBUF:-default} (BUILDING.md)"
      [ -n "$SPOTLESS" ] && echo "workaround: spotless-maven-plugin $SPOTLESS for the style check (BUILDING.md)"
      echo "applied:    $applied (git am)"
      echo "built:      $built (mvn -pl ${modules:-?} test-compile, ${t_build} s)"
      echo "tests:      $tests (${t_tests} s)"
      [ -n "${TEST_DETAIL:-}" ] && echo "            $TEST_DETAIL"
      echo "style:      $style (checkstyle: violations on the lines the series adds or changes)"
      [ -n "${STYLE_DETAIL:-}" ] && echo "$STYLE_DETAIL" | sed 's/^/            /'
      echo
      echo "$line"
    } >"$out/check.txt"
    # The lines a reader needs from the Maven output: the commands, test counts, failures, the
    # reactor summary; not checkstyle's console list of every file's violations (Phoenix prints
    # them as errors; those on the series' lines are in check.txt).
    grep -E '## mvn|Tests run:|FAIL|ERROR\]|Rule [0-9]+:|Matched by|\.java:\[[0-9]|BUILD (SUCCESS|FAILURE)|Reactor Summary|SUCCESS \[|FAILURE \[|^Applying:|^error:|^Patch failed' "$log" \
      | no_color | grep -vE '^\[ERROR\] *$' \
      | grep -vE '^\[(ERROR|WARN|WARNING)\] /[^ ]*\.java:[0-9]+(:[0-9]+)?: .*\[[A-Za-z]+\]$' \
      | cut -c1-300 >"$out/check.log"
  fi
  unset TEST_DETAIL STYLE_DETAIL
  if [ $KEEP = 0 ]; then
    git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1
    rm -rf "$wt"
  fi
  [ $applied = yes ] && [ $built = yes ] && [[ "$tests" != *FAILED* ]] && [[ "$tests" != *"NOT RUN"* ]] \
    && { [ "$style" = clean ] || [ "$style" = - ]; }
}

status=0
for p in "${PAIRS[@]}"; do
  # shellcheck disable=SC2086
  check_one $p || status=1
done
exit $status
