#!/usr/bin/env bash
# Failover measurement of timeline-reads: 5 rounds x {graceful stop, abort} x {BASELINE, UPSTREAM,
# PATCHED}, each run 10 s of Poisson reads at 100/s with the fault 3 s in. Holds the JMH lock for
# the whole run, not niced. Classes copied from the module's target dirs to a private path first.
set -euo pipefail
R=/tmp/timeline/run
OUT=${OUT:-/tmp/timeline/failover-out}
mkdir -p "$OUT"
OPENS="-Djava.net.preferIPv4Stack=true -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true --add-modules jdk.unsupported --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-opens java.base/jdk.internal.util.random=ALL-UNNAMED"
cd "$R"
exec flock /tmp/hbasepatches-jmh.lock bash -c "
  date -u +'lock taken %FT%TZ' > '$OUT/lock.txt'; cat /proc/loadavg >> '$OUT/lock.txt'
  java -Xmx3g $OPENS -Dtest.build.data.basedirectory=$R/test-data \
    -Dscenario.rounds=0 -Dscenario.failover.rounds=5 -Dscenario.failover.seconds=10 \
    -Dscenario.out='$OUT' \
    -cp '$R/classes:$R/test-classes:$(cat $R/cp.txt)' \
    org.junit.runner.JUnitCore dev.hbasepatches.timeline.TimelineLatencyScenario
  rc=\$?
  date -u +'lock released %FT%TZ' >> '$OUT/lock.txt'; cat /proc/loadavg >> '$OUT/lock.txt'
  exit \$rc"
