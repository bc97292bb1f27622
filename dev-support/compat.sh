#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one or more contributor license
# agreements; and to You under the Apache License, Version 2.0.
#
# The compatibility record of one HBase release: runs every module's tests against the release a
# build profile pins, reads the surefire XML reports each module wrote, and writes one line per
# module to docs/compatibility/hbase-<version>.tsv. The tables in README.md and BUILDING.md are
# generated from those files (dev.hbasepatches.jmh.report.Compatibility, jmh-benchmarks).

set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: dev-support/compat.sh [-P PROFILE] [--skip MODULE]... [--reports-only | --from-log]
                             [--log FILE] [-- MAVEN OPTIONS]

Runs `mvn -B -o verify -fae -pl '!jmh-benchmarks'` (every module but the benchmarks, one reactor
run, going on after a module fails) with the release profile PROFILE (none: the default release,
HBase 2.6.4-hadoop3; `-P hbase-2.6.1`: HBase 2.6.1-hadoop3), then writes
docs/compatibility/hbase-<hbase.version>.tsv: per module the HBase and Phoenix release it ran on,
its own tests, failures, errors and skipped, the same four for upstream's test classes run with
the change installed (target/upstream-test-reports), the result, a hash of the module's src/
(as Evidence hashes src/main), the commit, the JDK and the date.

  -P PROFILE       the release profile (only release profiles: hbase-2.6.1)
  --skip MODULE    leave MODULE (e.g. phoenix-patches/local-index-pruning) out of the build and
                   the record (a module that pins its own release has a line in another record)
  --reports-only   run no build; read the reports the modules' target/ folders hold now
  --from-log       run no build; write the record of the last run for this release again from
                   its log and the reports it wrote (e.g. after stopping a run: the modules it
                   finished count, the rest are "not run"); commit and date are the run's start
  --log FILE       the Maven output (default target/compat/<release>.log)
  -h, --help       this text

Environment: MVN overrides the Maven command (e.g. MVN="nice -n 19 mvn").
Then regenerate the tables:
  java -cp jmh-benchmarks/target/benchmarks.jar dev.hbasepatches.jmh.report.Compatibility --docs

Example:
  dev-support/compat.sh && dev-support/compat.sh -P hbase-2.6.1
USAGE
}

root=$(cd "$(dirname "$0")/.." && pwd)
profile=""
reports_only=0
from_log=0
log=""
skip=()
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -P) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; profile=$2; shift 2 ;;
    -P*) profile=${1#-P}; shift ;;
    --skip) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; skip+=("${2%/}"); shift 2 ;;
    --reports-only) reports_only=1; shift ;;
    --from-log) from_log=1; shift ;;
    --log) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; log=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "compat.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done

# A property's value in a pom: the first <name>value</name> after the line matching `from`.
pom_property() { # file name from
  awk -v name="$2" -v from="$3" '
    $0 ~ from { on = 1 }
    on && index($0, "<" name ">") {
      s = $0; sub(".*<" name ">", "", s); sub("</" name ">.*", "", s); print s; exit
    }' "$1"
}

hbase_version=$(pom_property "$root/pom.xml" hbase.version '<properties>')
if [[ -n $profile ]]; then
  grep -q "<id>$profile</id>" "$root/pom.xml" || {
    echo "compat.sh: the root pom has no profile $profile" >&2; exit 2; }
  v=$(pom_property "$root/pom.xml" hbase.version "<id>$profile</id>")
  [[ -n $v ]] || { echo "compat.sh: profile $profile sets no hbase.version" >&2; exit 2; }
  hbase_version=$v
fi
phoenix_version=$(pom_property "$root/pom.xml" phoenix.version '<properties>')
# phoenix-patches pins its own HBase release for every profile.
phoenix_hbase=$(pom_property "$root/phoenix-patches/pom.xml" hbase.version '<properties>')
release="hbase-$hbase_version"
out_dir="$root/docs/compatibility"
out="$out_dir/$release.tsv"
mkdir -p "$root/target/compat" "$out_dir"
[[ -n $log ]] || log="$root/target/compat/$release.log"

# The modules, in reactor order: every module under hbase-patches/ and phoenix-patches/, then
# hbase-perf (jmh-benchmarks is left out: its tests check the documents, these tables included).
modules=()
for parent in hbase-patches phoenix-patches; do
  while read -r m; do modules+=("$parent/$m"); done < <(
    sed -n 's:.*<module>\(.*\)</module>.*:\1:p' "$root/$parent/pom.xml")
done
modules+=(hbase-perf)
exclude='!jmh-benchmarks'
skipped=""
for s in "${skip[@]}"; do
  found=0
  kept=()
  for m in "${modules[@]}"; do
    if [[ $m == "$s" ]]; then found=1; else kept+=("$m"); fi
  done
  [[ $found -eq 1 ]] || { echo "compat.sh: --skip $s: no such module" >&2; exit 2; }
  modules=("${kept[@]}")
  exclude="$exclude,!$s"
  skipped="$skipped --skip $s"
done

artifact_id() { # module dir
  awk '/<\/parent>/ { f = 1; next }
    f && /<artifactId>/ { gsub(/.*<artifactId>|<\/artifactId>.*/, ""); print; exit }' \
    "$root/$1/pom.xml"
}

# What Evidence.treeSha computes: the first 16 hex digits of the sha256 of the sha256sum lines
# of every file under DIR, in byte order of their ./paths.
tree_sha() {
  [[ -d $1 ]] || { echo none; return; }
  (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum \
    | sha256sum | cut -c1-16)
}

# What the build runs from, taken before it starts.
marker="$root/target/compat/$release.start"
commit=$(git -C "$root" rev-parse --short=12 HEAD)
if [[ -n $(git -C "$root" status --porcelain --untracked-files=no) ]]; then
  commit="$commit+"
fi
jdk=$(java -version 2>&1 | head -n 1 | sed 's/.*version "\([^"]*\)".*/\1/')
jdk="$jdk $(java -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.vendor = //p')"
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)

if [[ $from_log -eq 1 ]]; then
  [[ -f $marker && -f $log ]] || {
    echo "compat.sh: --from-log: no earlier run of $release ($marker, $log)" >&2; exit 2; }
  for other in "$root"/target/compat/*.start; do
    if [[ $other -nt $marker ]]; then
      echo "compat.sh: --from-log: a later run ($other) wrote over $release's reports" >&2
      exit 2
    fi
  done
  started=$(stat -c %Y "$marker")
  date=$(date -u -d "@$started" +%Y-%m-%dT%H:%M:%SZ)
  commit=$(git -C "$root" log -1 --before="@$started" --format=%h --abbrev=12 HEAD)
  rc=stopped
elif [[ $reports_only -eq 0 ]]; then
  touch "$marker"
  sleep 1
  profile_args=()
  [[ -n $profile ]] && profile_args=(-P "$profile")
  cmd=(${MVN:-mvn} -B -o verify -fae -pl "$exclude" "${profile_args[@]}" "${extra[@]}")
  echo "compat.sh: ${cmd[*]} (output: $log)"
  set +e
  (cd "$root" && "${cmd[@]}") >"$log" 2>&1
  rc=$?
  set -e
  echo "compat.sh: Maven exited $rc"
else
  rc=-
fi

# Sums tests, failures, errors, skipped over the TEST-*.xml files of a report folder (those
# written by this run, unless --reports-only).
sum_reports() { # dir
  local dir=$1 files=()
  if [[ -d $dir ]]; then
    if [[ $reports_only -eq 1 ]]; then
      mapfile -t files < <(find "$dir" -maxdepth 1 -name 'TEST-*.xml' | LC_ALL=C sort)
    else
      mapfile -t files < <(find "$dir" -maxdepth 1 -name 'TEST-*.xml' -newer "$marker" \
        | LC_ALL=C sort)
    fi
  fi
  if [[ ${#files[@]} -eq 0 ]]; then
    echo "- - - - 0"
    return
  fi
  # The first <testsuite ...> element of each file carries the counts.
  for f in "${files[@]}"; do
    tr '\n' ' ' <"$f" | grep -o '<testsuite [^>]*>' | head -n 1
  done | awk '
    function attr(s, n,   m) {
      if (match(s, " " n "=\"[0-9]+\"")) {
        m = substr(s, RSTART, RLENGTH); gsub(/[^0-9]/, "", m); return m + 0
      }
      return 0
    }
    { t += attr($0, "tests"); f += attr($0, "failures"); e += attr($0, "errors")
      s += attr($0, "skipped"); n++ }
    END { printf "%d %d %d %d %d\n", t, f, e, s, n }'
}

tmp="$out.tmp"
{
  printf '# The tests each module ran on %s, written by dev-support/compat.sh%s%s; do not edit.\n' \
    "$release" "${profile:+ -P $profile}" "$skipped"
  printf '# result: passed (every test passed), failed (a test failed), build failed (the module'
  printf ' did not build or its tests did not finish), no tests (built and verified, no JUnit tests),'
  printf ' not run (no reports: a module it needs failed).\n# upstream_*: upstream test classes run with the change installed. src_sha:'
  printf ' the module'"'"'s src/ as Evidence.treeSha hashes it. "+" after the commit: uncommitted'
  printf ' changes.\n'
  printf 'module\thbase\tphoenix\ttests\tfailures\terrors\tskipped'
  printf '\tupstream_tests\tupstream_failures\tupstream_errors\tupstream_skipped'
  printf '\tresult\tsrc_sha\tcommit\tjdk\tdate\n'
  for m in "${modules[@]}"; do
    hv=$hbase_version
    pv=-
    if [[ $m == phoenix-patches/* ]]; then
      hv=$phoenix_hbase
      pv=$phoenix_version
    fi
    read -r t f e s n <<<"$(sum_reports "$root/$m/target/surefire-reports")"
    read -r ut uf ue us un <<<"$(sum_reports "$root/$m/target/upstream-test-reports")"
    aid=$(artifact_id "$m")
    broke=0
    if [[ $rc != - ]] && grep -q "Failed to execute goal .* on project $aid:" "$log"; then
      broke=1
    fi
    name=$(awk '/<\/parent>/ { f = 1; next }
      f && /<name>/ { gsub(/.*<name>|<\/name>.*/, ""); print; exit }' "$root/$m/pom.xml")
    finished=0
    if grep -F "[INFO] $name " "$log" | grep -Eq ' (SUCCESS|FAILURE) \['; then
      finished=1
    fi
    if [[ $rc != - && $broke -eq 0 && $finished -eq 0 ]]; then
      # Maven never finished the module (a run stopped on the way): its reports are partial.
      t=- f=- e=- s=- ut=- uf=- ue=- us=-
      result="not run"
    elif [[ $n -eq 0 && $un -eq 0 ]]; then
      result="not run"
      if [[ $broke -eq 1 ]]; then
        result="build failed"
      elif [[ $rc != - && $finished -eq 1 ]]; then
        result="no tests"
      fi
    elif [[ $(( ${f/-/0} + ${e/-/0} + ${uf/-/0} + ${ue/-/0} )) -gt 0 ]]; then
      result="failed"
    elif [[ $broke -eq 1 ]]; then
      result="build failed"
    else
      result="passed"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
      "$m" "$hv" "$pv" "$t" "$f" "$e" "$s" "$ut" "$uf" "$ue" "$us" "$result" \
      "$(tree_sha "$root/$m/src")" "$commit" "$jdk" "$date"
  done
} >"$tmp"
mv "$tmp" "$out"
echo "compat.sh: wrote $out"
column -t -s $'\t' <(grep -v '^#' "$out") | cut -c1-150
