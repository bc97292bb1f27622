#!/usr/bin/env bash
# The command behind results/2026-11-25-latency-scenario, run from the project root.
flock /tmp/hbasepatches-jmh.lock mvn -B -ntp -o verify -pl hbase-patches/timeline-reads -am \
  -Ptimeline-scenario -Dtest=TimelineLatencyScenario -Dsurefire.failIfNoSpecifiedTests=false \
  -Dscenario.rounds=5 -Dscenario.seconds=8 -Dscenario.rate=100 -Dscenario.failover.rounds=1 \
  -Dscenario.out=$PWD/hbase-patches/timeline-reads/results/2026-11-25-latency-scenario
