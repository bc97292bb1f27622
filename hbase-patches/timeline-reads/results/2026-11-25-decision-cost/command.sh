#!/usr/bin/env bash
# The command behind results/2026-11-25-decision-cost (run from the project root after
# mvn -B package -pl jmh-benchmarks -am -DskipTests; the jar was copied to /tmp/tl-bench.jar first).
flock /tmp/hbasepatches-jmh.lock java -jar /tmp/tl-bench.jar TimelineDecisionBenchmark \
  -f 5 -wi 5 -w 1s -i 5 -r 1s -prof gc \
  -rf json -rff hbase-patches/timeline-reads/results/2026-11-25-decision-cost/decide.json
