#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one or more contributor license
# agreements; and to You under the Apache License, Version 2.0.
#
# The rounds of this folder: ROUNDS x (abort, graceful stop) runs of hbase-perf's replicaFailover,
# each one JVM (cluster start, load, the three modes one after another) under the JMH lock.
# Odd rounds: abort first, modes BASELINE, UPSTREAM, PATCHED; even rounds: stop first, modes
# PATCHED, UPSTREAM, BASELINE. Each run's report lands in OUT/raw/r<N>-<fault>/; runs.tsv gets
# the command, the time the lock was held, the exit code and the load average before and after.
#
#   run-rounds.sh ROOT OUT [ROUNDS]
#     ROOT: a checkout (or a copy of dev-support/ and the built jars) with hbase-perf and
#           hbase-patches/timeline-reads built; OUT: where raw/ and runs.tsv go; ROUNDS (5)
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: run-rounds.sh ROOT OUT [ROUNDS]" >&2
  exit 2
fi
root=$1
out=$2
rounds=${3:-5}
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "run-rounds.sh: ROUNDS must be a positive number, got '$rounds'" >&2
  exit 2
fi
export ROOT="$root"
mkdir -p "$out/raw"
[[ -f $out/runs.tsv ]] || printf 'round\tfault\tmodes\tstart_utc\tlock_held_s\texit\tload_before\tload_after\tcommand\n' > "$out/runs.tsv"
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2 == 1)); then
    faults=(abort stop); modes=baseline,upstream,patched
  else
    faults=(stop abort); modes=patched,upstream,baseline
  fi
  for f in "${faults[@]}"; do
    dir=$out/raw/r$r-$f
    rm -rf "$dir"; mkdir -p "$dir"
    cmd=(dev-support/hbase-perf.sh --reportDir="$dir" --progress=0 --rows=10000 --rate=100
      --duration=10s --fault="$f" --failoverModes="$modes" --table=failover replicaFailover)
    # The lock is held for this one run only; its held time and the load are taken inside it.
    flock /tmp/hbasepatches-jmh.lock bash -c '
      dir=$1; shift
      cut -d" " -f1-3 /proc/loadavg > "$dir/load-before"
      date -u +%H:%M:%S > "$dir/start"
      s=$(date +%s.%N)
      set +e; (cd "$ROOT" && "$@") > "$dir/stdout" 2> "$dir/stderr"; echo $? > "$dir/exit"
      e=$(date +%s.%N)
      cut -d" " -f1-3 /proc/loadavg > "$dir/load-after"
      echo "$s $e" | awk "{printf \"%.1f\", \$2 - \$1}" > "$dir/held"' _ "$dir" "${cmd[@]}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$f" "$modes" "$(cat "$dir/start")" \
      "$(cat "$dir/held")" "$(cat "$dir/exit")" "$(cat "$dir/load-before")" \
      "$(cat "$dir/load-after")" "${cmd[*]/$out/OUT}" >> "$out/runs.tsv"
    echo "round $r $f: exit $(cat "$dir/exit"), lock held $(cat "$dir/held") s" >&2
  done
done
