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
# Runs upstream HBase's PerformanceEvaluation (from hbase-mapreduce's tests jar on Maven Central,
# the HBase release inside the tool's jar: see PE_HBASE_VERSION) and hbase-perf side by side on the same embedded minicluster with the same command
# line and the same table: for each command and client count, ROUNDS pairs of runs, the two
# tools alternating which goes first, each measured run a JVM of its own under the JMH lock
# (flock /tmp/hbasepatches-jmh.lock). Then summarises hbase-perf / PE throughput and mean
# latency per case: geometric mean of the pair ratios with a 95% t-interval (ForkStats' paired
# method) and a verdict against "within ±10%".
#
#   dev-support/pe-side-by-side.sh OUT_DIR [ROWS_PER_CLIENT] [ROUNDS]
#
#   PE_COMMANDS  commands (default: sequentialWrite randomRead scan), PE's names
#   PE_ROWS_<command>  rows per client for that command instead of ROWS_PER_CLIENT (e.g.
#                PE_ROWS_sequentialWrite=200000 PE_ROWS_randomRead=30000), so that each
#                command's measured window can be long enough without the slow ones taking hours
#   PE_CLIENTS   client counts (default: 1 2)
#   PE_OPTS      more options given to both tools (e.g. --valueSize=100)
#   HBASE_PERF_JAR  the tool's jar (default hbase-perf/target/hbase-perf.jar; a classpath works)
#   PE_JARS      where PE's jars are fetched to (default hbase-perf/target/pe)
#   PE_HBASE_VERSION, PE_HADOOP_VERSION  the HBase release whose PE runs and the Hadoop whose
#                MapReduce jar it takes (default: the hbase-client and hadoop-common versions in
#                the tool's jar, i.e. the build's pins: 2.6.4-hadoop3 and 3.4.2 by default,
#                2.6.1-hadoop3 and 3.3.5 with -Phbase-2.6.1). Where Central has no
#                hbase-mapreduce of a -hadoop3 release (2.6.4-hadoop3), the plain build of the
#                same release is taken: PE runs with --nomapred, on the tool's HBase client jars.
#   PE_STOP_AT   a time (as date -d reads it, e.g. 05:10 UTC): no round starts after it
#   PE_WARMUP    unmeasured runs of every case by each tool before the rounds (default 1)
#
# Each measured run's JVM is timed by /usr/bin/time when it is there (raw/*.time: elapsed, user
# and system CPU seconds, comma-separated), and the summary compares the client JVMs' CPU per
# row (start-up, JIT and GC included).
#
# The cluster is hbase-perf's embedded one (dev.hbasepatches.perf.ServeCluster: one region
# server, local file system) in a JVM of its own; both tools reach it through ZooKeeper. First
# PE's sequentialWrite fills the table (rows x the largest client count), so the read commands
# of both tools read the same rows; then each round runs every case once. OUT_DIR gets runs.tsv, raw/ (every run's
# output: hbase-perf's JSON, PE's log), loads.tsv (load average before and after each pair),
# table.md, table.csv, pairs.csv and machine.txt.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: pe-side-by-side.sh OUT_DIR [ROWS_PER_CLIENT] [ROUNDS]"
if [[ $# -lt 1 || $# -gt 3 || "$1" == -* ]]; then
  echo "$usage" >&2
  exit 2
fi
out="$1"
rows="${2:-100000}"
rounds="${3:-5}"
if ! [[ "$rows" =~ ^[1-9][0-9]*$ && "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "pe-side-by-side.sh: ROWS_PER_CLIENT and ROUNDS are positive integers, got '$rows' '$rounds'" >&2
  echo "$usage" >&2
  exit 2
fi
commands=(${PE_COMMANDS:-sequentialWrite randomRead scan})
clients=(${PE_CLIENTS:-1 2})
extra=(${PE_OPTS:-})
lock=/tmp/hbasepatches-jmh.lock
jar="${HBASE_PERF_JAR:-$root/hbase-perf/target/hbase-perf.jar}"
pe_dir="${PE_JARS:-$root/hbase-perf/target/pe}"
if [[ "$jar" != *:* && ! -f "$jar" ]]; then
  echo "pe-side-by-side.sh: no $jar; build it: mvn -B package -DskipTests -pl hbase-perf -am" >&2
  exit 2
fi
jar_version() { # jar groupId/artifactId: the version of that artifact the (shaded) jar holds
  [[ "$1" != *:* ]] && unzip -p "$1" "META-INF/maven/$2/pom.properties" 2>/dev/null \
    | sed -n 's/^version=//p' | tr -d '\r' | head -1
}
pe_hbase="${PE_HBASE_VERSION:-$(jar_version "$jar" org.apache.hbase/hbase-client || true)}"
pe_hadoop="${PE_HADOOP_VERSION:-$(jar_version "$jar" org.apache.hadoop/hadoop-common || true)}"
if [[ -z "$pe_hbase" || -z "$pe_hadoop" ]]; then
  echo "pe-side-by-side.sh: cannot read the HBase and Hadoop versions from $jar; set PE_HBASE_VERSION and PE_HADOOP_VERSION" >&2
  exit 2
fi
pe_dir="$pe_dir/$pe_hbase"
fetch() { # groupId:artifactId:version[:type:classifier]
  mvn -B -ntp -q -s "$root/.mvn/settings.xml" dependency:copy -Dartifact="$1" \
    -DoutputDirectory="$pe_dir"
}
if ! ls "$pe_dir"/hbase-mapreduce-*-tests.jar >/dev/null 2>&1; then
  mkdir -p "$pe_dir"
  pe_mr="$pe_hbase"
  if ! fetch "org.apache.hbase:hbase-mapreduce:$pe_mr:jar:tests" >/dev/null 2>&1; then
    pe_mr="${pe_hbase%-hadoop3}"
    echo "pe-side-by-side.sh: no hbase-mapreduce $pe_hbase on Central; PE from its plain build, $pe_mr" >&2
    fetch "org.apache.hbase:hbase-mapreduce:$pe_mr:jar:tests"
  fi
  for art in "org.apache.hbase:hbase-mapreduce:$pe_mr" \
    "org.apache.hadoop:hadoop-mapreduce-client-core:$pe_hadoop" \
    io.dropwizard.metrics:metrics-core:3.2.6; do
    fetch "$art"
  done
fi
mkdir -p "$out/raw"
out="$(cd "$out" && pwd)"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# shellcheck source=jdk17-opens.sh
source "$root/dev-support/jdk17-opens.sh"
# PE reports through its log: its own logger at INFO on stderr, everything else at WARN. The
# tool's jar binds slf4j to log4j 1.x (reload4j), so that is the configuration PE's JVM reads.
log4j="$out/raw/pe-log4j.properties"
cat > "$log4j" <<'PROPS'
log4j.rootLogger=WARN, console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n
log4j.logger.org.apache.hadoop.hbase.PerformanceEvaluation=INFO
PROPS

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine: $(nproc) vCPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -r)"
  echo "java: $("$java_bin" -version 2>&1 | head -1)"
  echo "hbase (tool's jar): $pe_hbase, hadoop $pe_hadoop; PE jars: $(cd "$pe_dir" && echo *.jar)"
  echo "command: dev-support/pe-side-by-side.sh $* (PE_COMMANDS='${commands[*]}' PE_CLIENTS='${clients[*]}' PE_OPTS='${extra[*]}'$(env | grep '^PE_ROWS_' | sort | sed 's/^/ /' | tr -d '\n'))"
  echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

port_file="$out/raw/zk.port"
rm -f "$port_file"
"$java_bin" -Xms4g -Xmx4g "${opens[@]}" -cp "$jar" dev.hbasepatches.perf.ServeCluster \
  "$port_file" 1 > "$out/raw/cluster.log" 2>&1 &
server=$!
stop_cluster() {
  rm -f "$port_file"
  wait "$server" 2>/dev/null || true
}
trap stop_cluster EXIT
for _ in $(seq 1 600); do
  [[ -f "$port_file" ]] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "pe-side-by-side.sh: the cluster did not start; see $out/raw/cluster.log" >&2
    exit 3
  fi
  sleep 1
done
port="$(cat "$port_file")"
echo "cluster up, ZooKeeper on localhost:$port" >&2

rows_for() { # command: PE_ROWS_<command> if set, else ROWS_PER_CLIENT
  local v="PE_ROWS_$1"
  local n="${!v:-$rows}"
  if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
    echo "pe-side-by-side.sh: $v is a positive integer, got '$n'" >&2
    exit 2
  fi
  echo "$n"
}
timer() { # time file: /usr/bin/time writing elapsed, user and system seconds to it, if there
  if [[ -x /usr/bin/time ]]; then
    echo /usr/bin/time -f %e,%U,%S -o "$1"
  fi
}
run_perf() { # command clients round [record [rows]]
  local f="raw/hbase-perf-$1-$2-$3.json" n
  n="${5:-$(rows_for "$1")}"
  # shellcheck disable=SC2046
  flock "$lock" $(timer "$out/raw/hbase-perf-$1-$2-$3.time") "$java_bin" -Xms2g -Xmx2g "${opens[@]}" -cp "$jar" dev.hbasepatches.perf.PerfTool \
    --zk="localhost:$port" --progress=0 --nomapred --rows="$n" "${extra[@]}" \
    --json="$out/$f" "$1" "$2" > "$out/raw/hbase-perf-$1-$2-$3.out" 2>&1
  if [[ "${4:-yes}" == yes ]]; then
    printf '%s\t%s\t%s\thbase-perf\t%s\t%s\n' "$1" "$2" "$3" "$n" "$f" >> "$out/runs.tsv"
  fi
}
run_pe() { # command clients round [record [rows]]
  local f="raw/pe-$1-$2-$3.log" n
  n="${5:-$(rows_for "$1")}"
  # shellcheck disable=SC2046
  flock "$lock" $(timer "$out/raw/pe-$1-$2-$3.time") "$java_bin" -Xms2g -Xmx2g "${opens[@]}" \
    -Dlog4j.configuration="file:$log4j" -cp "$pe_dir/*:$jar" \
    org.apache.hadoop.hbase.PerformanceEvaluation -Dhbase.zookeeper.quorum=localhost \
    -Dhbase.zookeeper.property.clientPort="$port" --nomapred --rows="$n" "${extra[@]}" \
    "$1" "$2" > "$out/$f" 2>&1
  if [[ "${4:-yes}" == yes ]]; then
    printf '%s\t%s\t%s\tpe\t%s\t%s\n' "$1" "$2" "$3" "$n" "$f" >> "$out/runs.tsv"
  fi
}

: > "$out/runs.tsv"
printf 'command\tclients\tround\tended (UTC)\tload before (1/5/15 min)\tload after\n' > "$out/loads.tsv"
# One fill for the largest client count: its rows are a superset of every smaller count's, so the
# rounds can go round-major (every case once per round), and a run stopped early (PE_STOP_AT)
# still has the same number of pairs in every case, spread over the same stretch of time.
most=0
for n in "${clients[@]}"; do (( n > most )) && most=$n; done
fill=0
for cmd in "${commands[@]}"; do
  n="$(rows_for "$cmd")"
  (( n > fill )) && fill=$n
done
echo "filling TestTable with $fill x $most rows (PE sequentialWrite, not measured)" >&2
run_pe sequentialWrite "$most" fill no "$fill"
# The region server's JVM starts cold: its first minutes of requests run slower and slower
# less, which favours whichever tool goes second in a pair. PE_WARMUP runs of each case by each
# tool (default 1; not recorded) warm it before the measured rounds.
for w in $(seq 1 "${PE_WARMUP:-1}"); do
  for n in "${clients[@]}"; do
    for cmd in "${commands[@]}"; do
      echo "warm-up $w: $cmd, $n client(s) (not measured)" >&2
      run_pe "$cmd" "$n" "warmup$w" no; run_perf "$cmd" "$n" "warmup$w" no
    done
  done
done
stop_at=""
if [[ -n "${PE_STOP_AT:-}" ]]; then
  stop_at="$(date -u -d "$PE_STOP_AT" +%s)"
fi
done_rounds=0
for r in $(seq 1 "$rounds"); do
  if [[ -n "$stop_at" ]] && (( $(date -u +%s) >= stop_at )); then
    echo "PE_STOP_AT=$PE_STOP_AT reached: stopping after $done_rounds of $rounds round(s)" >&2
    echo "stopped by PE_STOP_AT=$PE_STOP_AT after $done_rounds of $rounds round(s)" \
      >> "$out/machine.txt"
    break
  fi
  k=0
  for n in "${clients[@]}"; do
    for cmd in "${commands[@]}"; do
      before="$(cut -d' ' -f1-3 /proc/loadavg)"
      echo "round $r/$rounds: $cmd, $n client(s) (load $before)" >&2
      # Which tool goes first alternates from case to case and from round to round.
      if (( (r + k) % 2 == 1 )); then
        run_pe "$cmd" "$n" "$r"; run_perf "$cmd" "$n" "$r"
      else
        run_perf "$cmd" "$n" "$r"; run_pe "$cmd" "$n" "$r"
      fi
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$cmd" "$n" "$r" "$(date -u +%H:%M:%S)" "$before" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/loads.tsv"
      k=$((k + 1))
    done
  done
  done_rounds=$r
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
"$java_bin" -cp "$jar" dev.hbasepatches.perf.PeSideBySide "$out"
