#!/usr/bin/env bash
# The command behind results/2026-11-25-decision-cost-final (the jar built from commit a319d0e,
# the final policy, copied to /tmp/tl-bench2.jar); run from the project root.
flock -w 900 /tmp/hbasepatches-jmh.lock java -jar /tmp/tl-bench2.jar TimelineDecisionBenchmark \
  -f 5 -wi 5 -w 1s -i 5 -r 1s -prof gc \
  -rf json -rff hbase-patches/timeline-reads/results/2026-11-25-decision-cost-final/decide.json
