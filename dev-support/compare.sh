#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one or more contributor license
# agreements; and to You under the Apache License, Version 2.0.
#
# Compares benchmark results the way a reviewer should read them, like Go's benchstat: per case,
# the ratio with a 95% interval over forks (the fork is the unit) and a verdict.
#
#   dev-support/compare.sh OLD.json NEW.json              # after a rebase: did anything move?
#   dev-support/compare.sh --modes UPSTREAM,PATCHED R.json # two modes of one run
#   dev-support/compare.sh --target 1.5 --modes BASELINE,PATCHED R.json
#   dev-support/compare.sh --modes UPSTREAM,PATCHED --paired DIR/r*-UPSTREAM.json DIR/r*-PATCHED.json
#       # paired single forks (one JSON per fork, rounds in file-name order): fork i of each
#       # mode is a pair; --cpu cpuNanos compares work per CPU second, --metric
#       # gc.alloc.rate.norm bytes per op (fewer is better)
#
# Ratio > 1 means the second side is better. Fewer than 5 forks is flagged in the verdict.
# Needs jmh-benchmarks/target/benchmarks.jar (mvn -B package -pl jmh-benchmarks -am -DskipTests)
# or JMH_JAR pointing at a copy.

set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jar=${JMH_JAR:-$root/jmh-benchmarks/target/benchmarks.jar}
if [[ ! -f $jar ]]; then
  echo "compare.sh: $jar not found; build it with: mvn -B package -pl jmh-benchmarks -am -DskipTests" >&2
  exit 2
fi
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp "$jar" dev.hbasepatches.jmh.report.Compare "$@"
