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
# Runs hbase-perf, the PerformanceEvaluation-style load tool, with the JVM flags HBase needs on
# JDK 17. Arguments go to the tool; `dev-support/hbase-perf.sh --help` lists them.
#
#   HBASE_PERF_JAR        the tool's jar (default: hbase-perf/target/hbase-perf.jar)
#   HBASE_PERF_HEAP       heap for the JVM, which also holds the embedded cluster (default 4g)
#   HBASE_PERF_CLASSPATH  extra jars, e.g. change modules built elsewhere (':'-separated)
#   HBASE_PERF_JAVA_OPTS  more JVM options
#
# Change modules built in this checkout (hbase-patches/*/target/*.jar) are put on the classpath
# by themselves, so --patched / --change=... find them. The checksum change replaces one of
# HBase's own classes (checksum-overlay's ChecksumUtil), which only works when its jar comes
# BEFORE the fat jar; it is put there only when the command line asks for the checksum change,
# so every other run measures HBase's own class.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${HBASE_PERF_JAR:-$root/hbase-perf/target/hbase-perf.jar}"
if [[ ! -f "$jar" ]]; then
  echo "hbase-perf.sh: no $jar; build it first: mvn -B package -DskipTests -pl hbase-perf -am" >&2
  exit 2
fi
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if ! command -v "$java_bin" >/dev/null 2>&1; then
  echo "hbase-perf.sh: no java found (set JAVA_HOME to a JDK 17)" >&2
  exit 2
fi

# Does the command line turn the checksum change on? (--change=checksum, --changes=...checksum...,
# --changes=all or --patched, in either --name=value or --name value form.)
wants_checksum=false
prev=""
for arg in "$@"; do
  value=""
  case "$arg" in
    --change=*|--changes=*) value="${arg#*=}" ;;
    --patched|--patched=true) wants_checksum=true ;;
  esac
  case "$prev" in
    --change|--changes) value="$arg" ;;
  esac
  case ",$value," in
    *,checksum,*|*,all,*) wants_checksum=true ;;
  esac
  prev="$arg"
done

front=""
cp="$jar"
for module_jar in "$root"/hbase-patches/*/target/hbasepatches-*.jar; do
  [[ -f "$module_jar" ]] || continue
  case "$module_jar" in
    *-testkit-*|*-tests.jar|*-sources.jar) continue ;;
    */hbasepatches-checksum-overlay-*)
      # Only in front of HBase's own ChecksumUtil does the overlay do anything.
      if [[ "$wants_checksum" == true ]]; then
        front="$front$module_jar:"
      fi
      continue ;;
  esac
  cp="$cp:$module_jar"
done
cp="$front$cp"
if [[ -n "${HBASE_PERF_CLASSPATH:-}" ]]; then
  cp="$cp:$HBASE_PERF_CLASSPATH"
fi

# shellcheck source=jdk17-opens.sh
source "$root/dev-support/jdk17-opens.sh"

# shellcheck disable=SC2086 # HBASE_PERF_JAVA_OPTS is a list of options on purpose.
exec "$java_bin" -Xms"${HBASE_PERF_HEAP:-4g}" -Xmx"${HBASE_PERF_HEAP:-4g}" "${opens[@]}" \
  ${HBASE_PERF_JAVA_OPTS:-} -cp "$cp" dev.hbasepatches.perf.PerfTool "$@"
