#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0
#
# Minicluster benchmark of the three modes (LocalIndexClusterScenario, module test scope): one
# fresh JVM and minicluster per fork, each fork measuring every region count, shape and mode
# (modes taking turns block by block), each fork under /tmp/hbasepatches-jmh.lock and not niced.
# Usage, from the project root, after building the class path (command.txt):
#   run.sh CLASSPATH_FILE OUTDIR FORKS [scenario options...]
set -euo pipefail
cp_file=$1; out=$2; forks=$3; shift 3
mkdir -p "$out"
for f in $(seq 1 "$forks"); do
  echo "fork $f start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-load.txt"
  flock /tmp/hbasepatches-jmh.lock java -Xmx3g -cp "$(cat "$cp_file")" \
    dev.hbasepatches.localindex.LocalIndexClusterScenario --out "$out/fork-$f.tsv" "$@" \
    > "$out/fork-$f.log" 2>&1
  echo "fork $f end $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-load.txt"
done
