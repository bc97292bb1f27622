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
# Runs the JMH benchmarks with full settings and renders one Markdown report per change.
# One mode per fork: a look at any benchmark and grid. The numbers to quote, with verdicts, come
# from `mvn -Pjmh verify` (both modes in every fork, five forks per target).

set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: dev-support/jmh.sh [--rebuild] [--reports DIR] [JMH options...] [benchmark regex...]

Runs jmh-benchmarks/target/benchmarks.jar (built first if missing) with full settings, then
writes one Markdown report per change plus index.md with ReportWriter.

Defaults, each dropped when you pass the same JMH option yourself:
  -f 2 -wi 10 -w 2s -i 10 -r 2s -foe true -rf json -rff jmh-benchmarks/target/jmh-result.json

Script options:
  --rebuild        rebuild the benchmarks jar even if it exists
  --reports DIR    where reports go (default: jmh-benchmarks/target/reports)
  --dry-run        print the commands instead of running them
  -h, --help       this help; for JMH's own: java -jar jmh-benchmarks/target/benchmarks.jar -h

Everything else is passed to JMH as is. Relative paths (-rff, -o, --reports) are taken from
the directory you run the script in. Examples:
  dev-support/jmh.sh -prof gc SeekSkip
  dev-support/jmh.sh -f 1 -p mode=PATCHED,BASELINE 'checksum\..*verify'
  dev-support/jmh.sh -rff /tmp/run1.json --reports /tmp/run1 SeekSkip
  dev-support/jmh.sh -l              # list benchmarks only: no run, no reports

Environment: JAVA_HOME picks the JVM; MVN overrides the Maven command (default: mvn).
USAGE
}

# Relative paths the user typed mean their directory, not the repository root we move to.
ORIG_PWD="$(pwd)"
abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "${ORIG_PWD}/$1" ;;
  esac
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"

JAR="${ROOT}/jmh-benchmarks/target/benchmarks.jar"
JAVA="${JAVA_HOME:+${JAVA_HOME}/bin/}java"
RESULT="${ROOT}/jmh-benchmarks/target/jmh-result.json"
REPORTS="${ROOT}/jmh-benchmarks/target/reports"
REBUILD=false
DRY_RUN=false
LIST_ONLY=false

# JMH (jopt-simple) rejects an option given twice, so a default is only added when the user did
# not set it. Plain strings rather than associative arrays keep this working on bash 3 (macOS).
DEFAULTS=(-f 2 -wi 10 -w 2s -i 10 -r 2s -foe true)
GIVEN=" "
JMH_ARGS=()

# Which option a token sets, for the options this script cares about: "-f 2", "-f=2", "-f2".
option_name() {
  case "$1" in
    -f|-wi|-w|-i|-r|-foe|-rf|-rff|-o) printf '%s\n' "${1#-}" ;;
    -f=*|-wi=*|-w=*|-i=*|-r=*|-foe=*|-rf=*|-rff=*|-o=*)
      local o="${1%%=*}"
      printf '%s\n' "${o#-}" ;;
    -f[0-9]*) echo f ;;
    -i[0-9]*) echo i ;;
    -w[0-9]*) echo w ;;
    -r[0-9]*) echo r ;;
    *) echo "" ;;
  esac
}

while [[ $# -gt 0 ]]; do
  arg="$1"
  shift
  case "${arg}" in
    -h|--help) usage; exit 0 ;;
    --rebuild) REBUILD=true; continue ;;
    --dry-run) DRY_RUN=true; continue ;;
    --reports)
      [[ $# -gt 0 ]] || { echo "jmh.sh: --reports needs a directory" >&2; exit 2; }
      REPORTS="$(abspath "$1")"; shift; continue ;;
    --reports=*) REPORTS="$(abspath "${arg#--reports=}")"; continue ;;
    -l|-lp|-lrf|-lprof) LIST_ONLY=true ;;
  esac
  name="$(option_name "${arg}")"
  if [[ -z "${name}" ]]; then
    JMH_ARGS+=("${arg}")
    continue
  fi
  GIVEN="${GIVEN}${name} "
  # Pull the value out of whichever form was used, so paths can be made absolute and -rf checked.
  if [[ "${arg}" == "-${name}" ]]; then
    [[ $# -gt 0 ]] || { echo "jmh.sh: ${arg} needs a value" >&2; exit 2; }
    value="$1"
    shift
  elif [[ "${arg}" == "-${name}="* ]]; then
    value="${arg#-${name}=}"
  else
    value="${arg#-${name}}"
  fi
  case "${name}" in
    rff) RESULT="$(abspath "${value}")"; continue ;;  # added below, with the default's place
    o) value="$(abspath "${value}")" ;;
    rf)
      if [[ "$(printf '%s' "${value}" | tr '[:upper:]' '[:lower:]')" != "json" ]]; then
        echo "jmh.sh: the reports need JSON results; drop '-rf ${value}' or use -rf json" >&2
        exit 2
      fi
      value=json ;;
  esac
  JMH_ARGS+=("-${name}" "${value}")
done

if [[ "${DRY_RUN}" == true ]]; then
  # Quoted so the lines can be pasted back into a shell.
  run() { printf '%q ' "$@"; echo; }
else
  run() { "$@"; }
fi

if [[ "${REBUILD}" == true || ! -f "${JAR}" ]]; then
  echo "jmh.sh: building ${JAR}" >&2
  run ${MVN:-mvn} -q -B -pl jmh-benchmarks -am package -DskipTests
fi

if [[ "${LIST_ONLY}" == true ]]; then
  run "${JAVA}" -jar "${JAR}" ${JMH_ARGS[@]+"${JMH_ARGS[@]}"}
  exit
fi

SETTINGS=()
for ((k = 0; k < ${#DEFAULTS[@]}; k += 2)); do
  if [[ "${GIVEN}" != *" ${DEFAULTS[k]#-} "* ]]; then
    SETTINGS+=("${DEFAULTS[k]}" "${DEFAULTS[k + 1]}")
  fi
done
[[ "${GIVEN}" == *" rf "* ]] || SETTINGS+=(-rf json)
SETTINGS+=(-rff "${RESULT}")

if [[ "${DRY_RUN}" == true ]]; then
  run "${JAVA}" -jar "${JAR}" "${SETTINGS[@]}" ${JMH_ARGS[@]+"${JMH_ARGS[@]}"}
  run "${JAVA}" -cp "${JAR}" dev.hbasepatches.jmh.report.ReportWriter "${RESULT}" "${REPORTS}"
  exit 0
fi
mkdir -p "$(dirname "${RESULT}")"

# JMH can fail part-way (a benchmark throws and -foe is on); render whatever results this run
# wrote, then exit with JMH's status. JMH creates the file empty at the start and fills it at
# the end, hence -s; the checksum tells this run's file from one an earlier run left (mtimes can
# tie on coarse file systems).
fingerprint() {
  if [[ -f "$1" ]]; then cksum < "$1"; else echo none; fi
}
before="$(fingerprint "${RESULT}")"
status=0
"${JAVA}" -jar "${JAR}" "${SETTINGS[@]}" ${JMH_ARGS[@]+"${JMH_ARGS[@]}"} || status=$?

if [[ -s "${RESULT}" && "$(fingerprint "${RESULT}")" != "${before}" ]]; then
  report_status=0
  "${JAVA}" -cp "${JAR}" dev.hbasepatches.jmh.report.ReportWriter "${RESULT}" "${REPORTS}" \
    || report_status=$?
  [[ ${status} -ne 0 ]] || status=${report_status}
else
  echo "jmh.sh: JMH wrote no results to ${RESULT}; no reports written" >&2
  [[ ${status} -ne 0 ]] || status=1
fi
exit "${status}"
