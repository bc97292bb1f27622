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
# Starts HBase the way an operator runs it, with one change module deployed as its PATCH.md says,
# loads it with hbase-perf --verify, checks the module's "it is on" signal, and stops everything.
#
#   dev-support/real-cluster.sh --module none          # stock HBase
#   dev-support/real-cluster.sh --module seek-skip     # or row-index, offheap-read, quotas, checksum,
#                                                      # timeline-reads (client side)
#   dev-support/real-cluster.sh --module local-index-pruning
#                                                      # Phoenix 5.2.1 on HBase 2.6.1, the module
#                                                      # in a Phoenix JDBC client
#   dev-support/real-cluster.sh --module all           # each of them in turn, then a summary
#
# What it does:
#   1. Assembles an HBase lib/ from Maven Central: a generated pom over hbase-server,
#      hbase-client, hbase-zookeeper, hbase-hadoop2-compat, hbase-metrics and the log4j2 jars HBase's
#      binary distribution ships, copied with `mvn dependency:copy-dependencies` (runtime scope)
#      into target/real-cluster/lib-<hbase version>/ (kept between runs; --refresh-lib redoes it),
#      and hbase-webapps/ (which hbase-server's jar has left out since HBASE-28921) from
#      hbase-server's tests jar, as the distribution's $HBASE_HOME/hbase-webapps.
#   2. Makes a cluster directory under a temporary directory: lib/ (that assembly plus the
#      module's jar and its third-party jars), conf/hbase-site.xml (local file system root dir,
#      127.0.0.1, free ports, the module's keys), conf/log4j2.properties, logs/.
#   3. Starts, each a JVM of its own (-Xmx512m, the JDK 17 --add-opens of the root pom's
#      jdk17.opens): ZooKeeper (HBase's HQuorumPeer, as `hbase zookeeper`), one HMaster
#      (`HMaster start`) and two RegionServers (`HRegionServer -D<ports> start`, as
#      local-regionservers.sh). It waits for the master to finish initialising and for both
#      RegionServers to report for duty; a process that dies, or a wait that runs out, prints that
#      process's own errors and log tail and ends the run with exit code 1.
#   4. Runs hbase-perf against the cluster by its ZooKeeper quorum (--zk=127.0.0.1:<port>) with
#      --verify (a presplit table, so both RegionServers serve it; flushed, so reads come from
#      store files). For local-index-pruning, a Phoenix JDBC client instead
#      (jdbc:phoenix:127.0.0.1:<port>, LocalIndexRealClusterCheck from the module's test classes,
#      the module's jar on its class path): a table pre-split into --regions regions, LOCAL
#      indexes, rows, and local index queries with the module on (PATCHED) and off (UPSTREAM,
#      plain JDBC), the same rows each way, pruned to the regions the key reaches.
#   5. Checks that the module is on: its log line in both RegionServers' logs, live instances of
#      its class in both (jcmd GC.class_histogram), for offheap-read the L2 block cache hits on the
#      RegionServers' JMX servlet, for quotas a user throttle set as set_quota does and read
#      under, for timeline-reads (client side) hbase-perf's TimelineReader counts; for
#      --module none, that no module class was loaded. An ERROR line naming a module class fails
#      the run.
#   6. Stops the cluster as stop-hbase.sh does (`HMaster stop --shutDownCluster`), then
#      ZooKeeper, kills whatever is left, and deletes the cluster directory (--keep keeps it).
#
# Options:
#   --module NAME     none, seek-skip, row-index, offheap-read, quotas, checksum, timeline-reads,
#                     local-index-pruning, or all (required)
#   --mode MODE       the module's mode (default PATCHED; checksum: BASELINE = pure-Java CRCs,
#                     UPSTREAM = hbasepatches.checksum.enabled=false)
#   --rows N          rows per client for hbase-perf (default 20000)
#   --clients N       hbase-perf client threads (default 2)
#   --commands LIST   hbase-perf commands (default sequentialWrite,randomRead,scan)
#   --regions N       local-index-pruning: regions of the Phoenix client's table (default 200)
#   --omit GLOB       leave the lib/ jars matching GLOB out (e.g. 'spymemcached-*'), to see what
#                     a RegionServer says when a jar is missing; repeatable
#   --keep            keep the cluster directory (logs, data) after the run
#   --refresh-lib     assemble lib/ again from Maven Central
#   --build           build the module's jar and hbase-perf's jar first (mvn -pl ... -am package)
#   --record DIR      with --module all: write each module's output to DIR/<module>.txt and the
#                     summary to DIR/summary.txt (the files dev-support/real-cluster/runs/ holds)
#
# Environment:
#   MVN               the Maven command (default: mvn; e.g. "nice mvn")
#   HBASE_VERSION     HBase release of lib/ (default 2.6.4-hadoop3, the project's default pin;
#                     for local-index-pruning the phoenix-patches pin, 2.6.1-hadoop3, the release
#                     Phoenix 5.2.1 is built on)
#   RC_HEAP           heap of each cluster JVM (default 512m; local-index-pruning 1536m)
#   RC_PERF_HEAP      heap of hbase-perf's JVM (default 512m)
#   RC_WAIT_SECONDS   how long to wait for each process to come up (default 180)
#   JAVA_HOME         a JDK 17
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=jdk17-opens.sh
source "$root/dev-support/jdk17-opens.sh"

module=""
mode="PATCHED"
rows=20000
clients=2
commands="sequentialWrite,randomRead,scan"
phoenix_regions=200
keep=false
omit=()
refresh_lib=false
build=false
record=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --module) module="$2"; shift 2 ;;
    --module=*) module="${1#*=}"; shift ;;
    --mode) mode="$2"; shift 2 ;;
    --mode=*) mode="${1#*=}"; shift ;;
    --rows) rows="$2"; shift 2 ;;
    --rows=*) rows="${1#*=}"; shift ;;
    --clients) clients="$2"; shift 2 ;;
    --clients=*) clients="${1#*=}"; shift ;;
    --commands) commands="$2"; shift 2 ;;
    --commands=*) commands="${1#*=}"; shift ;;
    --regions) phoenix_regions="$2"; shift 2 ;;
    --regions=*) phoenix_regions="${1#*=}"; shift ;;
    --omit) omit+=("$2"); shift 2 ;;
    --omit=*) omit+=("${1#*=}"); shift ;;
    --keep) keep=true; shift ;;
    --refresh-lib) refresh_lib=true; shift ;;
    --build) build=true; shift ;;
    --record) record="$2"; shift 2 ;;
    --record=*) record="${1#*=}"; shift ;;
    -h|--help) sed -n '19,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "real-cluster.sh: unknown argument '$1' (--help lists them)" >&2; exit 2 ;;
  esac
done

all_modules=(none seek-skip row-index offheap-read quotas checksum timeline-reads local-index-pruning)
if [[ "$module" == all ]]; then
  self="${BASH_SOURCE[0]}"
  summary=()
  failed=0
  for m in "${all_modules[@]}"; do
    start=$SECONDS
    args=(--module "$m" --rows "$rows" --clients "$clients" --commands "$commands" --regions "$phoenix_regions")
    [[ "$m" != none ]] && args+=(--mode "$mode")
    [[ "$keep" == true ]] && args+=(--keep)
    [[ "$build" == true ]] && args+=(--build)
    echo "[real-cluster] ===== $self ${args[*]}" >&2
    if [[ -n "$record" ]]; then
      mkdir -p "$record"
      out="$record/$m.txt"
      echo "\$ dev-support/real-cluster.sh ${args[*]}" >"$out"
      # The run's own exit code, not tee's.
      if "$self" "${args[@]}" 2>&1 | tee -a "$out" >&2; [[ ${PIPESTATUS[0]} -eq 0 ]]; then
        ok=0
      else
        ok=1
      fi
    elif "$self" "${args[@]}"; then
      ok=0
    else
      ok=1
    fi
    if [[ $ok -eq 0 ]]; then
      summary+=("$(printf '%-20s passed  %4ds' "$m" $((SECONDS - start)))")
    else
      failed=$((failed + 1))
      summary+=("$(printf '%-20s FAILED  %4ds' "$m" $((SECONDS - start)))")
    fi
  done
  echo "[real-cluster] ===== summary (mode $mode)" >&2
  printf '  %s\n' "${summary[@]}" >&2
  if [[ -n "$record" ]]; then
    {
      echo "\$ dev-support/real-cluster.sh --module all --mode $mode --rows $rows --clients $clients --commands $commands --regions $phoenix_regions"
      echo "commit $(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD -- . 2>/dev/null || echo +), version $(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -1), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(java -version 2>&1 | head -1)"
      echo "summary (mode $mode)"
      printf '  %s\n' "${summary[@]}"
    } >"$record/summary.txt"
  fi
  exit $((failed > 0))
fi

perf_heap="${RC_PERF_HEAP:-512m}"
wait_seconds="${RC_WAIT_SECONDS:-180}"
# shellcheck disable=SC2206 # MVN may be a command with arguments, e.g. "nice mvn".
mvn_cmd=(${MVN:-mvn})
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
project_version="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -1)"

say() { echo "[real-cluster] $*" >&2; }
die() { echo "[real-cluster] FAILED: $*" >&2; exit 1; }

module_jar_of() {
  local dir="$root/$1" name
  name="hbasepatches-$(basename "$1")-$project_version.jar"
  [[ -f "$dir/target/$name" ]] || die "no $dir/target/$name; build it: mvn -B -pl $1 -am package -DskipTests (or pass --build)"
  echo "$dir/target/$name"
}

# ---------------------------------------------------------------------------------------------
# The modules, deployed as their PATCH.md files say ("How to turn it on" / "Turning it on").
#   module_dir:     the module whose jar goes in lib/ (or on the class path prefix)
#   extra_deps:     third-party jars the module needs in lib/ (group:artifact:version[:excl])
#   prefix_jars:    jars that go FIRST on the class path (HBASE_CLASSPATH_PREFIX)
#   site:           hbase-site.xml keys (name=value, one per line)
#   block_encoding: the table's data block encoding (hbase-perf --blockEncoding)
#   signal:         a RegionServer log line (extended regex) that shows the module is on
#   live_class:     a module class with live instances in each RegionServer (jcmd GC.class_histogram)
#   jvm_opts:       extra RegionServer and master JVM options
#   perf_cp, perf_extra, perf_signal: for a client-side module, "client-side" (its jar goes on
#                   hbase-perf's class path, not in lib/), its hbase-perf options, and the line of hbase-perf's output that shows it on
# ---------------------------------------------------------------------------------------------
module_dir=""
extra_deps=()
prefix_jars=()
site=""
block_encoding="NONE"
signal=""
live_class=""
jvm_opts=()
perf_cp=""
perf_extra=()
perf_signal=""
phoenix_client=false
default_hbase_version="2.6.4-hadoop3"
default_heap="512m"
case "$module" in
  none)
    ;;
  seek-skip)
    module_dir="hbase-patches/seek-skip"
    site="hbase.hregion.impl=dev.hbasepatches.seekskip.SeekSkipRegion
hbase.hstore.defaultengine.compactor.class=dev.hbasepatches.seekskip.SeekSkipCompactor
hbase.hstore.defaultengine.storeflusher.class=dev.hbasepatches.seekskip.SeekSkipStoreFlusher
hbasepatches.seekskip.mode=$mode"
    # The module's flusher logs each flush under its own class name (log4j pattern %c).
    signal='INFO .* dev\.hbasepatches\.seekskip\.SeekSkipStoreFlusher: Flushed [0-9]+ cells of'
    live_class="dev.hbasepatches.seekskip.SeekSkipRegion"
    ;;
  row-index)
    module_dir="hbase-patches/row-index"
    site="hbase.coprocessor.regionserver.classes=dev.hbasepatches.rowindex.RowIndexRegionServerCoprocessor
hbasepatches.rowindex.mode=$mode"
    block_encoding="ROW_INDEX_V1"
    if [[ "$mode" == "PATCHED" ]]; then
      signal='ROW_INDEX_V1 now encoded and read by dev\.hbasepatches\.rowindex'
      live_class="dev.hbasepatches.rowindex.RowIndexEncoder"
    fi
    ;;
  offheap-read)
    module_dir="hbase-patches/offheap-read"
    # PATCH.md: the module's jar, hbase-external-blockcache 2.6.1 (its one class; Central has no
    # -hadoop3 or 2.6.4 build, so its HBase and Hadoop dependencies stay out) and spymemcached.
    extra_deps=("org.apache.hbase:hbase-external-blockcache:2.6.1:exclude-hbase-hadoop"
      "net.spy:spymemcached:2.12.2")
    site="hbase.blockcache.use.external=true
hbase.blockcache.external.class=dev.hbasepatches.offheap.OffHeapBlockCache
hfile.block.cache.policy=IndexOnlyLRU
hfile.block.cache.size=0.1
hbasepatches.offheap.size=64m
hbase.coprocessor.regionserver.classes=dev.hbasepatches.offheap.OffHeapCacheGuard
hbasepatches.offheap.mode=$mode"
    signal='Off-heap block cache: .*copy data blocks on hit'
    live_class="dev.hbasepatches.offheap.OffHeapBlockCache"
    jvm_opts=(-XX:MaxDirectMemorySize=256m)
    ;;
  quotas)
    module_dir="hbase-patches/quotas"
    site="hbase.regionserver.impl=dev.hbasepatches.quotas.ThrottlingRegionServer
hbase.quota.enabled=true
hbasepatches.quotas.mode=$mode
hbase.quota.refresh.period=2000"
    signal='Paced request throttling started'
    live_class="dev.hbasepatches.quotas.ThrottlingRegionServer"
    ;;
  checksum)
    module_dir="hbase-patches/checksum"
    # PATCH.md: not lib/ but HBASE_CLASSPATH_PREFIX, the overlay's jar first, then the module's.
    prefix_jars=("hbase-patches/checksum-overlay" "hbase-patches/checksum")
    # The modes as hbase-perf's --change=checksum maps them: PATCHED intrinsic CRCs, BASELINE
    # Hadoop's pure-Java CRCs per chunk, UPSTREAM the overlay's stock path (switched off).
    case "$mode" in
      PATCHED)
        site="hbasepatches.checksum.enabled=true
hbasepatches.checksum.engine=intrinsic"
        signal='HFile block checksums: BlockChecksummer, engine INTRINSIC' ;;
      BASELINE)
        site="hbasepatches.checksum.enabled=true
hbasepatches.checksum.engine=pure-java"
        signal='HFile block checksums: BlockChecksummer, engine PURE_JAVA' ;;
      UPSTREAM)
        site="hbasepatches.checksum.enabled=false"
        signal='HFile block checksums: stock path \(hbasepatches\.checksum\.enabled=false\)' ;;
      *) echo "real-cluster.sh: checksum has modes PATCHED, BASELINE, UPSTREAM, not '$mode'" >&2; exit 2 ;;
    esac
    ;;
  timeline-reads)
    # Client side (PATCH.md): the jar goes to the application, here hbase-perf, which reads through
    # TimelineReader; the RegionServers get the replica settings PATCH.md lists, the table two
    # replicas of each region.
    module_dir="hbase-patches/timeline-reads"
    site="hbase.region.replica.replication.enabled=true
hbase.regionserver.storefile.refresh.period=1000"
    perf_cp="client-side"
    perf_extra=(--replicas=2 --change=timeline-reads --mode="$mode")
    perf_signal="reads served by TimelineReader, mode $mode"
    ;;
  local-index-pruning)
    # Client side (PATCH.md): the module's jar goes on the Phoenix client's class path only. The
    # RegionServers (and the master) get Phoenix 5.2.1's server side in lib/, unshaded from
    # Central: phoenix-core-server, phoenix-core-client, phoenix-hbase-compat-2.6.0 and what they
    # need that HBase's lib/ does not already hold (Central has no phoenix-server-hbase-2.6, the
    # shaded jar of Phoenix's binary release). HBase is the release phoenix-patches builds on.
    module_dir="phoenix-patches/local-index-pruning"
    default_hbase_version="$(sed -n 's:^ *<hbase.version>\(.*\)</hbase.version>.*:\1:p' "$root/phoenix-patches/pom.xml" | head -1)"
    phoenix_version="$(sed -n 's:^ *<phoenix.version>\(.*\)</phoenix.version>.*:\1:p' "$root/pom.xml" | head -1)"
    phoenix_compat="$(sed -n 's:^ *<phoenix.compat.artifact>\(.*\)</phoenix.compat.artifact>.*:\1:p' "$root/pom.xml" | head -1)"
    extra_deps=("org.apache.phoenix:phoenix-core-server:$phoenix_version:exclude-hbase-hadoop"
      "org.apache.phoenix:phoenix-core-client:$phoenix_version:exclude-hbase-hadoop"
      "org.apache.phoenix:$phoenix_compat:$phoenix_version:exclude-hbase-hadoop")
    # Phoenix 5.2.1's own bin/hbase-site.xml: the WAL codec that can write and replay index
    # edits (Phoenix refuses mutable indexes without it). Local indexes need nothing more: they
    # live in the data table's own regions (families L#0, ...), and the balancer and merger
    # settings of early Phoenix 4 releases are not used.
    site="hbase.regionserver.wal.codec=org.apache.hadoop.hbase.regionserver.wal.IndexedWALEditCodec"
    phoenix_client=true
    # At 512m both RegionServers ran out of heap (OutOfMemoryError in their RPC handlers) while
    # the client upserted into 200 regions with two column families each (data and L#0).
    default_heap="1536m"
    [[ "$phoenix_regions" =~ ^[0-9]+$ && "$phoenix_regions" -ge 16 ]] \
      || { echo "real-cluster.sh: --regions must be an integer of at least 16, got '$phoenix_regions'" >&2; exit 2; }
    ;;
  "")
    echo "real-cluster.sh: --module is required (none, seek-skip, row-index, offheap-read, quotas, checksum, timeline-reads, local-index-pruning, all)" >&2
    exit 2 ;;
  *)
    echo "real-cluster.sh: unknown module '$module' (none, seek-skip, row-index, offheap-read, quotas, checksum, timeline-reads, local-index-pruning, all)" >&2
    exit 2 ;;
esac
hbase_version="${HBASE_VERSION:-$default_hbase_version}"
heap="${RC_HEAP:-$default_heap}"


# ---------------------------------------------------------------------------------------------
# 0. Builds, when asked.
# ---------------------------------------------------------------------------------------------
if [[ "$build" == true ]]; then
  pl="hbase-perf"
  [[ "$phoenix_client" == true ]] && pl=""
  [[ -n "$module_dir" ]] && pl="${pl:+$pl,}$module_dir"
  for p in "${prefix_jars[@]}"; do pl="$pl,$p"; done
  say "building $pl"
  (cd "$root" && "${mvn_cmd[@]}" -B -q -pl "$pl" -am package -DskipTests) || die "the build failed"
fi
if [[ "$perf_cp" == client-side ]]; then perf_cp="$(module_jar_of "$module_dir")"; fi
perf_jar="$root/hbase-perf/target/hbase-perf.jar"
if [[ "$phoenix_client" == true ]]; then
  client_jar="$(module_jar_of "$module_dir")"
  client_classes="$root/$module_dir/target/test-classes"
  [[ -f "$client_classes/dev/hbasepatches/localindex/LocalIndexRealClusterCheck.class" ]] \
    || die "no LocalIndexRealClusterCheck in $client_classes; build it: mvn -B -pl $module_dir -am package -DskipTests (or pass --build)"
else
  [[ -f "$perf_jar" ]] || die "no $perf_jar; build it: mvn -B -pl hbase-perf -am package -DskipTests (or pass --build)"
fi
command -v "$java_bin" >/dev/null 2>&1 || die "no java found (set JAVA_HOME to a JDK 17)"

# ---------------------------------------------------------------------------------------------
# 1. lib/ from Maven Central.
# ---------------------------------------------------------------------------------------------
dep_xml() { # group:artifact:version[:exclude-hbase-hadoop]
  local g a v x
  IFS=: read -r g a v x <<<"$1"
  printf '    <dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version>' "$g" "$a" "$v"
  if [[ "$x" == tests-jar ]]; then
    printf '<classifier>tests</classifier><exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>'
  fi
  if [[ "$x" == exclude-hbase-hadoop ]]; then
    printf '<exclusions><exclusion><groupId>org.apache.hbase</groupId><artifactId>*</artifactId></exclusion>'
    printf '<exclusion><groupId>org.apache.hadoop</groupId><artifactId>*</artifactId></exclusion></exclusions>'
  fi
  printf '</dependency>\n'
}

# Copies the runtime closure of the given dependencies into a directory, through a generated pom.
assemble() { # dir dep...
  local out="$1"; shift
  local work="$out.pom"
  rm -rf "$out" "$work"
  mkdir -p "$work"
  {
    cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.hbasepatches.realcluster</groupId>
  <artifactId>lib-assembly</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
EOF
    for d in "$@"; do dep_xml "$d"; done
    cat <<EOF
  </dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId>
    <version>3.6.1</version>
  </plugin></plugins></build>
</project>
EOF
  } >"$work/pom.xml"
  (cd "$work" && "${mvn_cmd[@]}" -B -q -s "$root/.mvn/settings.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DexcludeArtifactIds=slf4j-reload4j,reload4j,slf4j-log4j12,log4j \
      -DoutputDirectory="$out") >"$work/mvn.log" 2>&1 \
    || { tail -40 "$work/mvn.log" >&2; die "could not assemble $out (the generated pom is $work/pom.xml)"; }
}

# HBase's own jars and what they need at run time, and log4j2 as HBase's binary distribution
# ships it (lib/client-facing-thirdparty: log4j-api, log4j-core, log4j-slf4j-impl, log4j-1.2-api,
# at the version hbase-logging's pom names).
cache="$root/target/real-cluster"
hbase_lib="$cache/lib-$hbase_version"
if [[ "$refresh_lib" == true || ! -f "$hbase_lib/.complete" ]]; then
  log4j_version="$(sed -n '/<artifactId>log4j-core<\/artifactId>/{n;s:.*<version>\(.*\)</version>.*:\1:p;q}' \
    "$HOME/.m2/repository/org/apache/hbase/hbase-logging/$hbase_version/hbase-logging-$hbase_version.pom" 2>/dev/null || true)"
  log4j_version="${log4j_version:-2.17.2}"
  say "assembling HBase $hbase_version lib/ from Maven Central (log4j $log4j_version) into $hbase_lib"
  deps=()
  for a in hbase-server hbase-client hbase-zookeeper hbase-hadoop2-compat hbase-metrics \
           hbase-logging hbase-procedure hbase-replication hbase-http; do
    deps+=("org.apache.hbase:$a:$hbase_version")
  done
  for a in log4j-api log4j-core log4j-slf4j-impl log4j-1.2-api; do
    deps+=("org.apache.logging.log4j:$a:$log4j_version")
  done
  # hbase-server's tests jar, for its hbase-webapps/ only (below).
  deps+=("org.apache.hbase:hbase-server:$hbase_version:tests-jar")
  assemble "$hbase_lib" "${deps[@]}"
  # Since HBASE-28921 (2.6.2) hbase-server's jar on Central leaves out hbase-webapps/ (the info
  # servers' pages, WEB-INF/web.xml); the binary distribution ships it as $HBASE_HOME/hbase-webapps,
  # which bin/hbase puts on the class path. The tests jar still carries it: take it from there.
  tests_jar="$hbase_lib/hbase-server-$hbase_version-tests.jar"
  rm -rf "$hbase_lib.home"
  mkdir -p "$hbase_lib.home"
  # (grep reads the whole listing: with -q, unzip could die of SIGPIPE and fail the pipeline.)
  if unzip -l "$(ls "$hbase_lib"/hbase-server-"$hbase_version".jar)" | grep ' hbase-webapps/' >/dev/null; then
    say "hbase-server's jar carries hbase-webapps/"
  else
    (cd "$hbase_lib.home" && unzip -q "$tests_jar" 'hbase-webapps/*')
    say "hbase-webapps/ taken from $(basename "$tests_jar") into $hbase_lib.home (the distribution's \$HBASE_HOME/hbase-webapps)"
  fi
  rm -f "$tests_jar"
  touch "$hbase_lib/.complete"
fi
say "HBase lib/: $(find "$hbase_lib" -name '*.jar' | wc -l) jars ($hbase_lib)"

extra_lib=""
if [[ ${#extra_deps[@]} -gt 0 ]]; then
  extra_lib="$cache/lib-$module-thirdparty"
  if [[ "$refresh_lib" == true || ! -f "$extra_lib/.complete" ]]; then
    say "assembling $module's third-party jars: ${extra_deps[*]}"
    assemble "$extra_lib" "${extra_deps[@]}"
    touch "$extra_lib/.complete"
  fi
fi

# ---------------------------------------------------------------------------------------------
# 2. The cluster directory.
# ---------------------------------------------------------------------------------------------
base="$(mktemp -d "${TMPDIR:-/tmp}/real-cluster-$module.XXXXXX")"
lib="$base/lib"; conf="$base/conf"; logs="$base/logs"; data="$base/data"
mkdir -p "$lib" "$conf" "$logs" "$data"
cp "$hbase_lib"/*.jar "$lib/"
if [[ -n "$module_dir" && ${#prefix_jars[@]} -eq 0 && -z "$perf_cp" && "$phoenix_client" != true ]]; then
  cp "$(module_jar_of "$module_dir")" "$lib/"
fi
if [[ -n "$extra_lib" ]]; then
  # A third-party jar whose artifact HBase's lib/ already holds stays out, whatever its version:
  # the servers run on HBase's. Other versions are listed as conflicts, and so are classes then
  # in two jars of lib/ (one of them added).
  python3 "$root/dev-support/real-cluster/merge-lib.py" "$hbase_lib" "$extra_lib" "$lib" >&2 \
    || say "lib/ holds a class in two jars (above): the class path's order decides which loads"
fi
for g in "${omit[@]}"; do
  # shellcheck disable=SC2086 # the glob is meant to expand
  gone=$(cd "$lib" && ls $g 2>/dev/null || true)
  [[ -n "$gone" ]] || die "--omit '$g' matches no jar in lib/"
  (cd "$lib" && rm -f $gone)
  say "left out of lib/ (--omit '$g'): $(echo $gone)"
done
prefix_cp=""
if [[ ${#prefix_jars[@]} -gt 0 ]]; then
  mkdir -p "$base/prefix"
  for p in "${prefix_jars[@]}"; do
    j="$(module_jar_of "$p")"
    cp "$j" "$base/prefix/"
    prefix_cp="$prefix_cp$base/prefix/$(basename "$j"):"
  done
fi

pids=()
names=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ ${#pids[@]} -gt 0 ]]; then
    stop_cluster || true
  fi
  if [[ "$keep" == true ]]; then
    say "kept $base"
  else
    rm -rf "$base"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_ports() { # n
  python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}
read -r zk_port master_port master_info rs1_port rs1_info rs2_port rs2_info <<<"$(free_ports 7)"

property() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }
{
  echo '<?xml version="1.0"?>'
  echo '<configuration>'
  property hbase.cluster.distributed true
  property hbase.rootdir "file://$data/hbase"
  property hbase.tmp.dir "$data/tmp"
  property hbase.zookeeper.quorum 127.0.0.1
  property hbase.zookeeper.property.clientPort "$zk_port"
  property hbase.zookeeper.property.dataDir "$data/zookeeper"
  property hbase.zookeeper.property.admin.enableServer false
  property hbase.master.port "$master_port"
  property hbase.master.info.port "$master_info"
  property hbase.master.info.bindAddress 127.0.0.1
  property hbase.master.ipc.address 127.0.0.1
  property hbase.regionserver.ipc.address 127.0.0.1
  property hbase.regionserver.info.bindAddress 127.0.0.1
  # A local file system has no hflush/hsync: the WAL and the master's store take it as it is.
  property hbase.unsafe.stream.capability.enforce false
  property hbase.wal.provider filesystem
  # Both RegionServers before the master assigns anything, so a presplit table spreads over them.
  property hbase.master.wait.on.regionservers.mintostart 2
  property hbase.regionserver.handler.count 10
  if [[ -n "$site" ]]; then
    echo '  <!-- the module, as its PATCH.md says -->'
    while IFS='=' read -r k v; do property "$k" "$v"; done <<<"$site"
  fi
  echo '</configuration>'
} >"$conf/hbase-site.xml"

cat >"$conf/log4j2.properties" <<'EOF'
status = warn
dest = err
name = RealCluster
appender.file.type = File
appender.file.name = file
appender.file.fileName = ${sys:hbase.log.dir}/${sys:hbase.log.file}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{ISO8601} %-5p [%t] %c: %m%n
rootLogger = INFO,file
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = INFO
logger.zookeeper.name = org.apache.zookeeper
logger.zookeeper.level = WARN
logger.hbasezk.name = org.apache.hadoop.hbase.zookeeper
logger.hbasezk.level = WARN
EOF

say "cluster directory $base"
say "ports: ZooKeeper $zk_port, master $master_port (info $master_info), RegionServers $rs1_port (info $rs1_info), $rs2_port (info $rs2_info)"
say "hbase-site.xml:"
sed 's/^/    /' "$conf/hbase-site.xml" >&2
if [[ -n "$prefix_cp" ]]; then
  say "HBASE_CLASSPATH_PREFIX: $prefix_cp"
fi

# ---------------------------------------------------------------------------------------------
# 3. The processes.
# ---------------------------------------------------------------------------------------------
cp -r "$hbase_lib.home/." "$base/"
# As bin/hbase: HBASE_CLASSPATH_PREFIX, conf/, $HBASE_HOME (for hbase-webapps/), lib/*.
classpath="$prefix_cp$conf:$base:$lib/*"
start_jvm() { # name main-class args...
  local name="$1"; shift
  local main="$1"; shift
  # shellcheck disable=SC2206
  local opts=(-Xmx"$heap" "${opens[@]}" -XX:+UseG1GC -Dhbase.log.dir="$logs"
    -Dhbase.log.file="$name.log" -Dhbase.home.dir="$base" -Dhbase.id.str="$name"
    -Dlog4j2.configurationFile="file:$conf/log4j2.properties")
  if [[ "$name" != zookeeper ]]; then opts+=("${jvm_opts[@]}"); fi
  echo "$java_bin ${opts[*]} -cp $classpath $main $*" >"$logs/$name.cmd"
  nohup "$java_bin" "${opts[@]}" -cp "$classpath" "$main" "$@" >"$logs/$name.out" 2>&1 &
  pids+=("$!")
  names+=("$name")
  say "started $name (pid $!): $main $*"
}

# Prints what a process said before dying or hanging: its stdout/stderr and its log's errors
# and tail (for a RegionServer, the RegionServer's own exception).
report_process() { # name
  local name="$1"
  if [[ -f "$logs/$name.log" ]]; then
    echo "----- $name: its errors ($logs/$name.log: ERROR/FATAL lines and their causes) -----" >&2
    awk '/ (ERROR|FATAL) / { seen = 1; print; n++ } seen && /^Caused by: / { print; n++ } n >= 16 { exit }' \
      "$logs/$name.log" >&2 || true
    echo "----- $name: $logs/$name.log, last 30 lines -----" >&2
    tail -30 "$logs/$name.log" >&2 || true
  fi
  if grep -qv '^SLF4J: ' "$logs/$name.out" 2>/dev/null; then
    echo "----- $name: stdout/stderr ($logs/$name.out), last 20 lines -----" >&2
    grep -v '^SLF4J: ' "$logs/$name.out" | tail -20 >&2 || true
  fi
  echo "----- end of $name -----" >&2
}

pid_of() {
  local i
  for i in "${!names[@]}"; do
    if [[ "${names[$i]}" == "$1" ]]; then echo "${pids[$i]}"; fi
  done
  return 0
}

wait_for() { # name what extended-regex [file]
  local name="$1" what="$2" pattern="$3" file="${4:-$logs/$1.log}" pid deadline
  pid="$(pid_of "$name")"
  deadline=$((SECONDS + wait_seconds))
  while ! grep -qE "$pattern" "$file" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      report_process "$name"
      die "$name (pid $pid) exited before $what"
    fi
    if ((SECONDS > deadline)); then
      report_process "$name"
      die "$name (pid $pid) not $what within ${wait_seconds}s"
    fi
    sleep 1
  done
  say "$name: $what"
}

wait_port() { # name port
  local name="$1" port="$2" pid deadline
  pid="$(pid_of "$name")"
  deadline=$((SECONDS + wait_seconds))
  while ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then report_process "$name"; die "$name (pid $pid) exited before listening on $port"; fi
    if ((SECONDS > deadline)); then report_process "$name"; die "$name not listening on $port within ${wait_seconds}s"; fi
    sleep 1
  done
  say "$name: listening on 127.0.0.1:$port"
}

stop_cluster() {
  local i pid deadline alive
  say "stopping the cluster (HMaster stop --shutDownCluster, as stop-hbase.sh)"
  if [[ -n "$(pid_of master)" ]] && kill -0 "$(pid_of master)" 2>/dev/null; then
    timeout 90 "$java_bin" -Xmx256m "${opens[@]}" -Dhbase.log.dir="$logs" -Dhbase.log.file=stop.log \
      -Dlog4j2.configurationFile="file:$conf/log4j2.properties" -cp "$classpath" \
      org.apache.hadoop.hbase.master.HMaster stop --shutDownCluster >"$logs/stop.out" 2>&1 || say "HMaster stop: exit $? (see $logs/stop.out)"
  fi
  # The master and the RegionServers exit on their own after a cluster shutdown; ZooKeeper last.
  deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    alive=0
    for i in "${!names[@]}"; do
      [[ "${names[$i]}" == zookeeper ]] && continue
      kill -0 "${pids[$i]}" 2>/dev/null && alive=$((alive + 1))
    done
    ((alive == 0)) && break
    sleep 1
  done
  for i in "${!names[@]}"; do
    pid="${pids[$i]}"
    if kill -0 "$pid" 2>/dev/null; then
      [[ "${names[$i]}" != zookeeper ]] && say "${names[$i]} (pid $pid) still up after the shutdown: TERM"
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  deadline=$((SECONDS + 30))
  for i in "${!names[@]}"; do
    pid="${pids[$i]}"
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then
      say "${names[$i]} (pid $pid) ignored TERM: KILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
  pids=()
  names=()
  say "all cluster processes stopped"
}

start_jvm zookeeper org.apache.hadoop.hbase.zookeeper.HQuorumPeer
wait_port zookeeper "$zk_port"
start_jvm master org.apache.hadoop.hbase.master.HMaster start
# As start-hbase.sh, the RegionServers after the master; here once its znodes exist, so they do
# not look for /hbase before the master has made it.
wait_for master "registered in ZooKeeper" 'Adding backup master ZNode'
start_jvm regionserver1 org.apache.hadoop.hbase.regionserver.HRegionServer \
  -Dhbase.regionserver.port="$rs1_port" -Dhbase.regionserver.info.port="$rs1_info" start
start_jvm regionserver2 org.apache.hadoop.hbase.regionserver.HRegionServer \
  -Dhbase.regionserver.port="$rs2_port" -Dhbase.regionserver.info.port="$rs2_info" start
wait_for regionserver1 "reported for duty" 'Serving as '
wait_for regionserver2 "reported for duty" 'Serving as '
wait_for master "initialised (hbase:meta and namespaces online)" 'Master has completed initialization'

# ---------------------------------------------------------------------------------------------
# 4. hbase-perf by the ZooKeeper quorum, --verify (for local-index-pruning, the Phoenix client).
# ---------------------------------------------------------------------------------------------
if [[ "$phoenix_client" == true ]]; then
  # As PATCH.md deploys it: the module's jar on the client's class path, here with the Phoenix
  # and HBase client jars of the cluster's lib/ (Phoenix's shaded client jar is not on Central)
  # and the check's class from the module's test classes; no hbase-site.xml, only the JDBC URL.
  client_cp="$client_jar:$client_classes:$lib/*"
  phoenix_url="jdbc:phoenix:127.0.0.1:$zk_port"
  say "Phoenix client: java -cp $(basename "$client_jar"):${client_classes#"$root/"}:lib/* dev.hbasepatches.localindex.LocalIndexRealClusterCheck --url $phoenix_url --regions $phoenix_regions"
  set +e
  "$java_bin" -Xmx"$perf_heap" "${opens[@]}" -Dhbase.log.dir="$logs" -Dhbase.log.file=client.log \
    -Dlog4j2.configurationFile="file:$conf/log4j2.properties" -cp "$client_cp" \
    dev.hbasepatches.localindex.LocalIndexRealClusterCheck --url "$phoenix_url" \
    --regions "$phoenix_regions" 2>&1 | grep --line-buffered -v '^SLF4J: ' | tee "$logs/client.out"
  client_rc=${PIPESTATUS[0]}
  set -e
  if [[ $client_rc -ne 0 ]]; then
    say "the Phoenix client exited $client_rc"
    for n in regionserver1 regionserver2; do report_process "$n"; done
    if [[ -f "$logs/client.log" ]]; then
      echo "----- the Phoenix client: its errors ($logs/client.log) -----" >&2
      awk '/ (ERROR|FATAL) / { seen = 1; print; n++ } seen && /^Caused by: / { print; n++ } n >= 16 { exit }' \
        "$logs/client.log" >&2 || true
    fi
    die "the Phoenix client against --module $module (exit $client_rc)"
  fi
  perf_signal="[local-index] passed: "
  say "Phoenix client: passed"
else
perf_args=(--zk="127.0.0.1:$zk_port" --rows="$rows" --presplit=4 --flush --verify
  --connectTimeout=120s --table=RealCluster)
if [[ "$block_encoding" != NONE ]]; then perf_args+=(--blockEncoding="$block_encoding"); fi
perf_args+=("${perf_extra[@]}")
say "hbase-perf ${perf_args[*]} $commands $clients"
set +e
"$java_bin" -Xmx"$perf_heap" "${opens[@]}" -cp "$perf_jar${perf_cp:+:$perf_cp}" dev.hbasepatches.perf.PerfTool \
  "${perf_args[@]}" "$commands" "$clients" 2> >(grep -vE '^ *\[[A-Za-z]+\] [0-9,]+ ops \(' >&2) \
  | tee "$logs/perf.out"
perf_rc=${PIPESTATUS[0]}
set -e
if [[ $perf_rc -ne 0 ]]; then
  say "hbase-perf exited $perf_rc"
  for n in regionserver1 regionserver2; do report_process "$n"; done
  die "hbase-perf --verify against --module $module (exit $perf_rc)"
fi
say "hbase-perf --verify: passed"
fi

# ---------------------------------------------------------------------------------------------
# 5. Is the module on?
# ---------------------------------------------------------------------------------------------
for n in regionserver1 regionserver2; do
  kill -0 "$(pid_of "$n")" 2>/dev/null || { report_process "$n"; die "$n died during the run"; }
done
if [[ "$module" == none ]]; then
  if grep -l 'dev\.hbasepatches' "$logs"/*.log >/dev/null 2>&1; then
    die "stock HBase, yet a log names dev.hbasepatches: $(grep -h 'dev\.hbasepatches' "$logs"/*.log | head -3)"
  fi
  say "it is stock HBase: no dev.hbasepatches class in any log"
elif [[ "$phoenix_client" == true ]]; then
  line="$(grep -F "$perf_signal" "$logs/client.out" | head -1 || true)"
  [[ -n "$line" ]] || die "the Phoenix client's output has no line with '$perf_signal'"
  say "Phoenix client: it is on: $line"
  # Nothing of the module runs on the servers (PATCH.md: client side), and Phoenix is there.
  for n in regionserver1 regionserver2; do
    grep -q 'dev\.hbasepatches' "$logs/$n.log" && die "$n's log names dev.hbasepatches: the module is client side"
    say "$n: Phoenix loaded: $(grep -oE 'org\.apache\.phoenix\.coprocessor\.[A-Za-z]+' "$logs/$n.log" | sort -u | head -4 | tr '\n' ' ')"
  done
elif [[ -n "$perf_signal" ]]; then
  line="$(grep -F "$perf_signal" "$logs/perf.out" | head -1 || true)"
  [[ -n "$line" ]] || die "hbase-perf's output has no line with '$perf_signal'"
  say "hbase-perf: it is on: $line"
elif [[ -n "$signal" ]]; then
  found=0
  for n in regionserver1 regionserver2; do
    line="$(grep -E "$signal" "$logs/$n.log" | head -1 || true)"
    if [[ -n "$line" ]]; then
      found=$((found + 1))
      say "$n: it is on: $line"
    else
      say "$n: no line matching /$signal/"
    fi
  done
  ((found == 2)) || die "the $module module's signal is missing in $((2 - found)) RegionServer log(s)"
fi
if [[ -n "$live_class" ]] && command -v jcmd >/dev/null 2>&1; then
  for n in regionserver1 regionserver2; do
    count="$(jcmd "$(pid_of "$n")" GC.class_histogram 2>/dev/null \
      | awk -v c="$live_class" '$4 == c { print $2 }' | head -1)"
    say "$n: jcmd GC.class_histogram: ${count:-0} live instance(s) of $live_class"
    [[ "${count:-0}" -gt 0 ]] || die "$n has no live $live_class"
  done
fi
if [[ "$module" == offheap-read ]]; then
  # The L2's counters as the RegionServer's JMX servlet shows them (its Server bean).
  for n in regionserver1:$rs1_info regionserver2:$rs2_info; do
    l2="$(curl -s "http://127.0.0.1:${n#*:}/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=Server" \
      | python3 -c 'import json, sys
beans = json.load(sys.stdin).get("beans", [])
b = beans[0] if beans else {}
print(" ".join("%s=%s" % (k, b.get(k, "absent")) for k in ("l2CacheHitCount", "l2CacheMissCount", "blockCacheCount", "l2CacheHitRatio")))' \
      2>&1 || true)"
    say "${n%%:*}: JMX RegionServer Server bean: $l2"
    [[ "$l2" =~ l2CacheHitCount=([0-9]+) && "${BASH_REMATCH[1]}" -gt 0 ]] \
      || die "${n%%:*}: no L2 block cache hits on JMX"
  done
fi
if [[ "$module" == quotas ]]; then
  # A throttle as `set_quota TYPE => THROTTLE, USER => '<user>', LIMIT => '20req/sec'` writes it
  # (Admin.setQuota, the shell's call), then reads under it: each RegionServer logs the limits it
  # picked up from hbase:quota (hbase.quota.refresh.period is 2 s here), and hbase-perf's rate
  # shows them biting. The throttle is removed again afterwards.
  user="$(id -un)"
  limit=20
  cat >"$base/SetThrottle.java" <<'EOF'
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.quotas.QuotaFilter;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.ThrottleType;

/** set_quota for one user's request rate: args user, requests per second or "off". */
public class SetThrottle {
  public static void main(String[] args) throws Exception {
    try (Connection c = ConnectionFactory.createConnection(HBaseConfiguration.create());
      Admin admin = c.getAdmin()) {
      if (args[1].equals("off")) {
        admin.setQuota(QuotaSettingsFactory.unthrottleUser(args[0]));
      } else {
        admin.setQuota(QuotaSettingsFactory.throttleUser(args[0], ThrottleType.REQUEST_NUMBER,
          Long.parseLong(args[1]), TimeUnit.SECONDS));
      }
      System.out.println("list_quotas USER => '" + args[0] + "': "
        + admin.getQuota(new QuotaFilter().setUserFilter(args[0])));
    }
  }
}
EOF
  set_throttle() {
    "$java_bin" -Xmx256m "${opens[@]}" -Dhbase.log.dir="$logs" -Dhbase.log.file=set-throttle.log \
      -Dlog4j2.configurationFile="file:$conf/log4j2.properties" -cp "$conf:$lib/*" \
      "$base/SetThrottle.java" "$user" "$1" 2>&1 | grep -v '^SLF4J: ' >&2
  }
  say "set_quota TYPE => THROTTLE, USER => '$user', LIMIT => '${limit}req/sec'"
  set_throttle "$limit"
  for n in regionserver1 regionserver2; do
    wait_for "$n" "throttling $user" "Request throttles now .*$user"
    say "$n: $(grep -E "Request throttles now .*$user" "$logs/$n.log" | tail -1 | sed 's/^.*INFO  //')"
  done
  say "hbase-perf randomRead for 10 s, 1 client, under the ${limit}req/sec throttle"
  set +e
  "$java_bin" -Xmx"$perf_heap" "${opens[@]}" -cp "$perf_jar" dev.hbasepatches.perf.PerfTool \
    --zk="127.0.0.1:$zk_port" --rows="$rows" --table=RealCluster --duration=10s randomRead 1 \
    2> >(grep -vE '^ *\[[A-Za-z]+\] [0-9,]+ ops \(' >&2) | tee "$logs/perf-throttled.out"
  set -e
  set_throttle off
fi
for n in regionserver1 regionserver2; do
  if grep -E ' (ERROR|FATAL) .*dev\.hbasepatches' "$logs/$n.log" >&2; then
    die "$n: the module logged an error (above)"
  fi
  errors="$(grep -cE ' (ERROR|FATAL) ' "$logs/$n.log" || true)"
  say "$n: $errors ERROR/FATAL line(s) in its log"
  if [[ "$errors" -gt 0 ]]; then
    # Each with the line after it (the exception), the first five.
    awk '/ (ERROR|FATAL) / { print; getline; print "    " $0; if (++n == 5) exit }' "$logs/$n.log" >&2
  fi
done

# ---------------------------------------------------------------------------------------------
# 6. Stop and clean up (the EXIT trap).
# ---------------------------------------------------------------------------------------------
stop_cluster
on=""
[[ -n "$signal$perf_signal" ]] && on=", module on"
if [[ "$phoenix_client" == true ]]; then
  say "done: --module $module: cluster up with Phoenix $phoenix_version (HBase $hbase_version), the Phoenix client's checks passed$on"
else
  say "done: --module $module${module_dir:+ (mode $mode)}: cluster up, hbase-perf --verify passed$on"
fi
