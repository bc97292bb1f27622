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
# The upstream patch series of each change, one per upstream branch committers maintain
# (hbase-patches/<change>/upstream/master/, upstream/branch-2.6/; Phoenix: upstream/master/,
# upstream/5.2/), each made with `git format-patch` on that branch. dev-support/upstream-series.sh
# builds and tests them from upstream's source; this script checks what can be checked without
# it, against the published jars the build already uses: the 2.6-line series (upstream/branch-2.6)
# applied to the sources jars of the HBase release the build pins and compiled against its jars.
#
#   upstream-patches.sh check [options] [CHANGE...]
#       For each change (default: every change with an upstream/<series-dir>/ series): take the
#       files the series touches from upstream's sources jars (or --checkout), `git apply --check`
#       and apply the series, then compile the touched main files against upstream's jars and the
#       series' test files against upstream's test jars (javac --release 8 -implicit:none). Fails
#       on a stale context or on code that does not compile.
#   upstream-patches.sh fresh
#       Every committed upstream/<target>/check.txt (written by upstream-series.sh) must describe
#       the series committed beside it (the same sha256 of the series and of tests.txt); fails on
#       a stale one. Prints each one's RESULT line and lists every series with no check.txt;
#       with --strict, a series not applied, built, tested and style-clean fails it too.
#   upstream-patches.sh selftest [options]
#       Proves the check can fail: a stale context line and an undefined symbol must each fail it.
#   upstream-patches.sh am CHANGE CHECKOUT
#       `git am` the series onto the current branch of an upstream HBase checkout (a committer's
#       path: `git checkout -b HBASE-XXXXX origin/branch-2.6` first; --series-dir master for master).
#   upstream-patches.sh workspace CHANGE [DIR]
#       A git repository of the pristine touched files with the series applied as commits (default
#       DIR target/upstream-workspace/CHANGE): edit, commit or amend there, then
#   upstream-patches.sh export CHANGE [DIR]
#       writes `git format-patch` of that workspace's commits back into the change's upstream/<series-dir>/.
#
# Options:
#   --checkout DIR       take the pristine files from an upstream checkout instead of sources jars
#   --sources DIR        directory holding <artifact>-<version>-sources.jar (and -test-sources.jar)
#   --hbase-version V    fetch V's sources jars with Maven (e.g. 2.6.4-hadoop3); default: the
#                        root pom's hbase.version. Compilation still uses the pinned release's
#                        jars, so use it with --no-compile to check that a series applies to V
#   --classpath-file F   the compile classpath (one line, ':'-separated); default: built with Maven
#                        from hbase-patches/upstream-patches
#   --work DIR           scratch directory (default target/upstream-patches under the project)
#   --no-compile         apply only
#   --release N          javac --release (default 8, what HBase 2.6 builds for)
#   --series-dir NAME    the series checked: upstream/NAME/*.patch (default branch-2.6, the series
#                        for the 2.6 line, which applies to the pinned 2.6 release's sources;
#                        5.2.1 for the Phoenix series rebased onto that release, which
#                        phoenix-patches/upstream-patches checks against phoenix-core-client's
#                        sources jar)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF="$ROOT/dev-support/$(basename "$0")"

die() { echo "upstream-patches: $*" >&2; exit 1; }
say() { echo "upstream-patches: $*" >&2; }

CHECKOUT=""
SOURCES=""
HBASE_VERSION=""
CLASSPATH_FILE=""
WORK="$ROOT/target/upstream-patches"
COMPILE=1
RELEASE=8
SERIES_DIR="branch-2.6"
STRICT=0
ARGS=()

usage() {
  sed -n '/^# The upstream patch series/,/^set -euo/p' "$SELF" | sed '$d'
}

pom_hbase_version() {
  sed -n 's:.*<hbase.version>\(.*\)</hbase.version>.*:\1:p' "$ROOT/pom.xml" | head -1
}

parse_options() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --checkout) CHECKOUT=$(cd "$2" && pwd); shift 2 ;;
      --sources) SOURCES=$(cd "$2" && pwd); shift 2 ;;
      --hbase-version) HBASE_VERSION="$2"; shift 2 ;;
      --classpath-file) CLASSPATH_FILE="$2"; shift 2 ;;
      --work) mkdir -p "$2"; WORK=$(cd "$2" && pwd); shift 2 ;;
      --no-compile) COMPILE=0; shift ;;
      --release) RELEASE="$2"; shift 2 ;;
      --series-dir) SERIES_DIR="$2"; shift 2 ;;
      --strict) STRICT=1; shift ;;
      -h|--help) usage; exit 0 ;;
      --*) die "unknown option $1 (see --help)" ;;
      *) ARGS+=("$1"); shift ;;
    esac
  done
}

# Every change that carries a series in upstream/$SERIES_DIR/, by module directory name.
all_changes() {
  local d
  for d in "$ROOT"/hbase-patches/*/upstream/"$SERIES_DIR" "$ROOT"/phoenix-patches/*/upstream/"$SERIES_DIR"; do
    [ -d "$d" ] && ls "$d"/*.patch >/dev/null 2>&1 && basename "$(dirname "$(dirname "$d")")"
  done
  return 0
}

change_dir() {
  local c="$1" d
  for d in "$ROOT/hbase-patches/$c" "$ROOT/phoenix-patches/$c"; do
    [ -d "$d/upstream" ] && { echo "$d"; return 0; }
  done
  die "no upstream series for change '$c' (expected hbase-patches/$c/upstream/$SERIES_DIR/*.patch)"
}

# A change's series: upstream/$SERIES_DIR/*.patch, in order.
series_of() {
  ls "$(change_dir "$1")/upstream/$SERIES_DIR"/*.patch 2>/dev/null | sort || true
}

# Repository paths the series touches (both sides of renames are not used by our series).
touched_paths() {
  grep -h '^diff --git a/' "$@" | awk '{print $3}' | sed 's#^a/##' | sort -u
}

# Sources jars for the version under check: given, fetched, or from the local repository.
resolve_sources() {
  if [ -n "$CHECKOUT" ] || [ -n "$SOURCES" ]; then
    return 0
  fi
  local version="${HBASE_VERSION:-$(pom_hbase_version)}"
  SOURCES="$WORK/sources-$version"
  mkdir -p "$SOURCES"
  local a
  for a in hbase-server hbase-common hbase-client; do
    [ -f "$SOURCES/$a-$version-sources.jar" ] && continue
    say "fetching org.apache.hbase:$a:$version:sources"
    (cd "$ROOT" && mvn -B -q -ntp org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
      -Dartifact="org.apache.hbase:$a:$version:jar:sources" -DoutputDirectory="$SOURCES" \
      -Dmdep.overWriteReleases=false) >/dev/null 2>&1 \
      || say "org.apache.hbase:$a:$version:sources is not on Central; series touching $a cannot be checked"
  done
}

# Copies the pristine upstream file at repository path $1 into tree $2, if upstream has it.
pristine_file() {
  local path="$1" tree="$2"
  mkdir -p "$tree/$(dirname "$path")"
  if [ -n "$CHECKOUT" ]; then
    [ -f "$CHECKOUT/$path" ] && cp "$CHECKOUT/$path" "$tree/$path"
    return 0
  fi
  # <artifact>/src/main/java/<file> lives in <artifact>-*-sources.jar,
  # <artifact>/src/test/java/<file> in <artifact>-*-test-sources.jar.
  local artifact="${path%%/*}" rest="${path#*/}" kind inner jar
  case "$rest" in
    src/main/java/*) kind=sources; inner="${rest#src/main/java/}" ;;
    src/test/java/*) kind=test-sources; inner="${rest#src/test/java/}" ;;
    *) die "cannot map $path to a sources jar" ;;
  esac
  jar=$(ls "$SOURCES"/"$artifact"-*-"$kind".jar 2>/dev/null | grep -v -- "-test-sources.jar$" \
    | head -1 || true)
  [ "$kind" = test-sources ] && jar=$(ls "$SOURCES"/"$artifact"-*-test-sources.jar 2>/dev/null \
    | head -1 || true)
  if [ -z "$jar" ]; then
    # A new test file needs no pristine copy; anything else cannot be checked without the jar.
    [ "$kind" = test-sources ] && return 0
    die "no $artifact sources jar in $SOURCES: cannot check $path"
  fi
  # The jar's entries are rooted at <artifact>/src/<main|test>/java; an entry upstream does not
  # have (a file the series creates) is simply not extracted.
  local root="$tree/${path%"$inner"}"
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$jar" "$inner" -d "$root" 2>/dev/null || true
  else
    (cd "$root" && jar xf "$jar" "$inner")
  fi
}

# The compile classpath: upstream's jars and test jars, as the upstream-patches module sees them.
# With --hbase-version V, every org.apache.hbase jar of the pinned release is swapped for V's
# (fetched from Central; an artifact V does not publish keeps the pinned jar, and says so).
resolve_classpath() {
  if [ -z "$CLASSPATH_FILE" ]; then
    CLASSPATH_FILE="$WORK/classpath.txt"
    if [ ! -s "$CLASSPATH_FILE" ]; then
      say "building the compile classpath with Maven (hbase-patches/upstream-patches)"
      (cd "$ROOT" && mvn -B -q -ntp -pl hbase-patches/upstream-patches \
        org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath \
        -Dmdep.includeScope=test -Dmdep.outputFile="$CLASSPATH_FILE") \
        || die "could not build the classpath"
    fi
  fi
  [ -f "$CLASSPATH_FILE" ] || die "no classpath file $CLASSPATH_FILE"
  local pinned
  pinned=$(pom_hbase_version)
  [ -n "$HBASE_VERSION" ] && [ "$HBASE_VERSION" != "$pinned" ] || return 0
  local jars="$WORK/jars-$HBASE_VERSION" entry out=() artifact file swapped
  mkdir -p "$jars"
  while read -r entry; do
    case "$entry" in
      */org/apache/hbase/*/"$pinned"/*.jar)
        artifact=$(basename "$(dirname "$(dirname "$entry")")")
        file=$(basename "$entry")
        swapped="$jars/${file/$pinned/$HBASE_VERSION}"
        if [ ! -f "$swapped" ]; then
          local coords="org.apache.hbase:$artifact:$HBASE_VERSION:jar"
          case "$file" in *-tests.jar) coords="$coords:tests" ;; esac
          (cd "$ROOT" && mvn -B -q -ntp org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
            -Dartifact="$coords" -DoutputDirectory="$jars") >/dev/null 2>&1 \
            || say "$coords is not on Central; keeping $file"
        fi
        if [ -f "$swapped" ]; then out+=("$swapped"); else out+=("$entry"); fi
        ;;
      *) out+=("$entry") ;;
    esac
  done < <(tr ':' '\n' < "$CLASSPATH_FILE" | grep -v '^$')
  CLASSPATH_FILE="$WORK/classpath-$HBASE_VERSION.txt"
  (IFS=:; echo "${out[*]}") > "$CLASSPATH_FILE"
}

# Applies the series of change $1 to a fresh tree under $WORK/$1 and compiles it.
# SELFTEST_STALE=1 damages the first context line of the pristine tree before applying.
check_change() {
  local change="$1" series base tree p out path
  mapfile -t series < <(series_of "$change")
  [ "${#series[@]}" -gt 0 ] || die "change '$change' has no patches in its upstream/"
  if [ -n "${SELFTEST_SERIES:-}" ]; then
    series=("$SELFTEST_SERIES")
  fi
  base="$WORK/$change"
  tree="$base/tree"
  rm -rf "$base"
  mkdir -p "$tree"
  local start=$SECONDS
  while read -r path; do
    pristine_file "$path" "$tree"
  done < <(touched_paths "${series[@]}")
  if [ "${SELFTEST_STALE:-0}" = 1 ]; then
    damage_first_context "${series[0]}" "$tree"
  fi
  # The tree must not be inside a git work tree, or `git apply` would skip every path outside
  # the current directory and still exit 0. The ceiling stops git's search at $base.
  export GIT_CEILING_DIRECTORIES="$base"
  if (cd "$tree" && git rev-parse --git-dir >/dev/null 2>&1); then
    die "$tree is inside a git repository; git apply would skip the patch"
  fi
  # An upstream test class the series edits is left to the from-source check: the released
  # sources have that class as the release shipped it (2.6.4's are JUnit 4, the branch's JUnit 5),
  # so its hunks need not apply here. Main files and the series' new test files must.
  local excludes=() skipped=()
  while read -r path; do
    case "$path" in
      */src/test/java/*)
        if [ -f "$tree/$path" ]; then
          excludes+=("--exclude=$path")
          skipped+=("$path")
        fi ;;
    esac
  done < <(touched_paths "${series[@]}")
  [ "${#skipped[@]}" -eq 0 ] \
    || say "$change: upstream test classes the series edits, left to upstream-series.sh: ${skipped[*]##*/}"
  for p in "${series[@]}"; do
    out=$(cd "$tree" && git apply --check -v ${excludes[@]+"${excludes[@]}"} "$p" 2>&1) || {
      echo "$out" >&2
      die "$change: $(basename "$p") does not apply to upstream ${CHECKOUT:-$SOURCES} (stale?)"
    }
    out=$(cd "$tree" && git apply -v ${excludes[@]+"${excludes[@]}"} "$p" 2>&1) || { echo "$out" >&2; die "$change: apply failed"; }
    # Here-strings, not `echo | grep -q`: under pipefail grep -q exiting at its first match can
    # kill echo with SIGPIPE, which failed a good series (and would pass a skipped one).
    local unexpected
    unexpected=$(grep '^Skipped patch' <<<"$out" || true)
    for path in ${skipped[@]+"${skipped[@]}"}; do
      unexpected=$(grep -vF "Skipped patch '$path'" <<<"$unexpected" || true)
    done
    if [ -n "$unexpected" ]; then
      echo "$out" >&2
      die "$change: git skipped part of $(basename "$p")"
    fi
    while read -r path; do
      [[ " ${skipped[*]-} " == *" $path "* ]] && continue
      grep -qF "Applied patch $path cleanly." <<<"$out" \
        || { echo "$out" >&2; die "$change: $path was not applied"; }
    done < <(touched_paths "$p")
  done
  for path in ${skipped[@]+"${skipped[@]}"}; do
    rm -f "$tree/$path"
  done
  say "$change: ${#series[@]} patch(es) apply cleanly ($((SECONDS - start)) s)"
}

# Compiles every applied tree, each on its own, in one JVM (dev-support/UpstreamPatchCompiler.java):
# main files against upstream's main jars, the series' tests against upstream's test jars too.
compile_trees() {
  local start=$SECONDS base
  java "$ROOT/dev-support/UpstreamPatchCompiler.java" "$CLASSPATH_FILE" "$RELEASE" "$@" \
    || die "compilation failed (javac's messages above)"
  say "compiled $# series against upstream's jars in $((SECONDS - start)) s"
  # One directory of every series' classes, for the upstream-patched test profile.
  mkdir -p "$WORK/patched-classes" "$WORK/patched-test-classes"
  for base in "$@"; do
    cp -r "$base/classes/." "$WORK/patched-classes/"
    cp -r "$base/test-classes/." "$WORK/patched-test-classes/"
  done
}

# Appends a comment to the first line the first hunk of patch $1 expects, in tree $2.
damage_first_context() {
  local patch="$1" tree="$2" path line
  path=$(touched_paths "$patch" | head -1)
  [ -f "$tree/$path" ] || die "selftest: $path is new in the series; pick a patch that edits a file"
  line=$(grep -m1 '^@@ ' "$patch" | sed 's/^@@ -\([0-9]*\).*/\1/')
  sed -i "${line}s|\$| // changed upstream|" "$tree/$path"
  say "selftest: changed line $line of pristine $path"
}

cmd_check() {
  local changes=("$@") c
  [ "${#changes[@]}" -gt 0 ] || mapfile -t changes < <(all_changes)
  [ "${#changes[@]}" -gt 0 ] || die "no change carries an upstream series"
  mkdir -p "$WORK"
  rm -rf "$WORK/patched-classes" "$WORK/patched-test-classes"
  resolve_sources
  [ "$COMPILE" = 1 ] && resolve_classpath
  # Every change is checked, so one stale series does not hide the state of the others.
  local bases=() failed=()
  for c in "${changes[@]}"; do
    if (check_change "$c"); then
      bases+=("$WORK/$c")
    else
      failed+=("$c")
    fi
  done
  if [ "$COMPILE" = 1 ] && [ "${#bases[@]}" -gt 0 ]; then
    compile_trees "${bases[@]}"
  fi
  [ "${#failed[@]}" -eq 0 ] || die "FAILED: ${failed[*]} (messages above)"
  say "OK: ${changes[*]}"
}

# The check must fail on a stale context and on an undefined symbol, or it proves nothing.
cmd_selftest() {
  local change="${1:-}" patch bad log rc
  [ -n "$change" ] || change=$(all_changes | head -1)
  [ -n "$change" ] || die "selftest: no change carries an upstream series"
  patch=$(series_of "$change" | head -1)
  mkdir -p "$WORK/selftest"
  log="$WORK/selftest/stale.log"
  rc=0
  SELFTEST_STALE=1 bash "$SELF" check --work "$WORK/selftest" ${SOURCES:+--sources "$SOURCES"} \
    ${CHECKOUT:+--checkout "$CHECKOUT"} --series-dir "$SERIES_DIR" --no-compile "$change" \
    >"$log" 2>&1 || rc=$?
  if [ "$rc" = 0 ] || ! grep -q 'does not apply' "$log"; then
    cat "$log" >&2
    die "selftest FAILED: a stale context line did not fail the check"
  fi
  say "selftest: a stale context fails the check, as it must"
  # The same series with one added return statement calling a method upstream does not have.
  bad="$WORK/selftest/undefined-symbol.patch"
  awk 'BEGIN { done = 0 }
       /^\+\+\+ b\// { main = ($0 ~ /\/src\/main\/java\//) }
       !done && main && /^\+[ \t]+return .*;[ \t]*$/ {
         print "+    return undefinedSymbolForUpstreamPatchSelfTest();"; done = 1; next }
       { print }
       END { if (!done) exit 3 }' "$patch" > "$bad" \
    || die "selftest: $patch has no added return statement in main code to break"
  log="$WORK/selftest/undefined.log"
  rc=0
  SELFTEST_SERIES="$bad" bash "$SELF" check --work "$WORK/selftest" ${SOURCES:+--sources "$SOURCES"} \
    ${CHECKOUT:+--checkout "$CHECKOUT"} --series-dir "$SERIES_DIR" \
    --classpath-file "$CLASSPATH_FILE" "$change" >"$log" 2>&1 || rc=$?
  if [ "$rc" = 0 ] || ! grep -q 'cannot find symbol' "$log"; then
    cat "$log" >&2
    die "selftest FAILED: an undefined symbol did not fail the check"
  fi
  say "selftest: an undefined symbol fails the check, as it must"
}

# The committed from-source checks (upstream-series.sh) must describe the committed series.
cmd_fresh() {
  local dir target check want got result bad=0 n=0 missing=()
  for dir in "$ROOT"/hbase-patches/*/upstream/*/ "$ROOT"/phoenix-patches/*/upstream/*/; do
    dir=${dir%/}
    ls "$dir"/*.patch >/dev/null 2>&1 || continue
    target="$(basename "$(dirname "$(dirname "$dir")")"):$(basename "$dir")"
    check="$dir/check.txt"
    if [ ! -f "$check" ]; then
      missing+=("$target")
      continue
    fi
    n=$((n + 1))
    # The same hash upstream-series.sh's series_sha writes: dev-support/series-sha.sh over the
    # series' patches in name order (their diff content; not the mail header or commit message).
    want=$("$ROOT/dev-support/series-sha.sh" $(ls "$dir"/*.patch | LC_ALL=C sort))
    got=$(sed -n 's/^series-sha256: *//p' "$check")
    result=$(grep '^RESULT ' "$check" || true)
    if [ "$want" != "$got" ]; then
      say "STALE $target: check.txt was made for another version of the series (sha256 $got, the committed series is $want): run dev-support/upstream-series.sh $target"
      bad=1
    elif [ -f "$dir/tests.txt" ] && [ "$(sed -n 's/^tests-sha256: *//p' "$check")" != "$(sha256sum < "$dir/tests.txt" | cut -c1-64)" ]; then
      say "STALE $target: tests.txt changed since check.txt was made: run dev-support/upstream-series.sh $target"
      bad=1
    elif ! grep -qE 'applied yes \| built yes \| tests [0-9]+/[0-9]+( \([0-9]+ skipped\))? \| style clean$' <<<"$result"; then
      say "NOT PASSING $target: $result"
      [ "$STRICT" = 1 ] && bad=1
    else
      say "ok $target: $result"
    fi
  done
  [ "${#missing[@]}" -eq 0 ] || say "not yet checked from upstream's source: ${missing[*]}"
  [ "$bad" = 0 ] || die "FAILED: a committed check.txt does not describe a passing check of its series"
  say "OK: $n committed from-source checks describe their series"
}

cmd_am() {
  local change="${1:?change}" checkout="${2:?upstream checkout}"
  mapfile -t series < <(series_of "$change")
  git -C "$checkout" am --3way "${series[@]}"
  say "$change: ${#series[@]} commit(s) on $(git -C "$checkout" rev-parse --abbrev-ref HEAD)"
}

cmd_workspace() {
  local change="${1:?change}" dir="${2:-$ROOT/target/upstream-workspace/$1}" path
  mapfile -t series < <(series_of "$change")
  [ -e "$dir" ] && die "$dir exists; remove it or name another directory"
  mkdir -p "$dir"
  resolve_sources
  while read -r path; do
    pristine_file "$path" "$dir"
  done < <(touched_paths "${series[@]}")
  find "$dir" -type f -empty -delete
  git -C "$dir" init -q
  git -C "$dir" add -A
  git -C "$dir" -c user.name=upstream -c user.email=upstream@localhost commit -q \
    -m "pristine upstream files (${CHECKOUT:-$SOURCES})"
  git -C "$dir" tag upstream-base
  git -C "$dir" am -q "${series[@]}"
  say "$change: workspace $dir (base tag upstream-base); edit, commit, then: $0 export $change $dir"
}

cmd_export() {
  local change="${1:?change}" dir="${2:-$ROOT/target/upstream-workspace/$1}" out
  out="$(change_dir "$change")/upstream/$SERIES_DIR"
  mkdir -p "$out"
  git -C "$dir" rev-parse -q --verify upstream-base >/dev/null || die "$dir is not a workspace"
  rm -f "$out"/*.patch
  git -C "$dir" format-patch -q --no-signature --zero-commit -o "$out" upstream-base..HEAD
  say "$change: $(ls "$out"/*.patch | wc -l) patch(es) written to $out"
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
parse_options "$@"
set -- ${ARGS[@]+"${ARGS[@]}"}
case "$cmd" in
  check) cmd_check "$@" ;;
  fresh) cmd_fresh ;;
  selftest)
    resolve_sources
    resolve_classpath
    cmd_selftest "$@" ;;
  am) cmd_am "$@" ;;
  workspace) cmd_workspace "$@" ;;
  export) cmd_export "$@" ;;
  -h|--help|help) usage ;;
  *) usage; [ -z "$cmd" ] && exit 2; die "unknown command '$cmd'" ;;
esac
