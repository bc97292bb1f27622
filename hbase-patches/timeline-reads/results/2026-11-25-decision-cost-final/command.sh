#!/usr/bin/env bash
# The command behind results/2026-11-25-decision-cost-final (run from the project root at commit
# 6e1416c, the final policy, after: nice -n 15 mvn -B -ntp package -pl jmh-benchmarks -am -DskipTests;
# the jar was copied to /tmp/timeline/benchmarks.jar first). The lock was taken at 18:52:30 UTC.
D=hbase-patches/timeline-reads/results/2026-11-25-decision-cost-final
flock /tmp/hbasepatches-jmh.lock java -jar /tmp/timeline/benchmarks.jar TimelineDecisionBenchmark \
  -f 5 -wi 5 -w 1s -i 5 -r 1s -prof gc -rf json -rff $D/decide.json > $D/jmh-output.txt 2>&1
# Per-fork means and 95% Student-t intervals (ForkStats), and the UPSTREAM vs PATCHED ratio:
java -cp /tmp/timeline/benchmarks.jar dev.hbasepatches.jmh.timeline.DecisionCostSummary \
  $D/decide.json > $D/summary-table.md
JMH_JAR=/tmp/timeline/benchmarks.jar dev-support/compare.sh --modes UPSTREAM,PATCHED \
  $D/decide.json > $D/compare-upstream-patched.txt
