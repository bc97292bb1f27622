#!/usr/bin/env bash
# The command behind results/2026-11-25-latency-scenario-run2, run from the project root.
# Not under the JMH lock: the lock was queued with other helpers' paired forks for more than the
# session had left, and the scenario is a minicluster load like a test run (see README.md).
mvn -B -ntp -o verify -pl hbase-patches/timeline-reads -am \
  -Ptimeline-scenario -Dtest=TimelineLatencyScenario -Dsurefire.failIfNoSpecifiedTests=false \
  -Dscenario.rounds=5 -Dscenario.seconds=6 -Dscenario.rate=100 -Dscenario.failover.rounds=1 \
  -Dscenario.out=$PWD/hbase-patches/timeline-reads/results/2026-11-25-latency-scenario-run2
