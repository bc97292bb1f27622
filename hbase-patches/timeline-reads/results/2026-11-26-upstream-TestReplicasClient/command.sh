#!/usr/bin/env bash
# Upstream's TestReplicasClient (hbase-server 2.6.1 test jar) with the timeline-reads series'
# patched hbase-client classes first on the class path (as -Pupstream-patched orders them), a
# conf dir that only lengthens the mini cluster's master wait, and a listener printing each
# test's wall time. Niced (a test, not a benchmark).
set -uo pipefail
S=${S:-/tmp/timeline/s11-rc}
OPENS="-Djava.net.preferIPv4Stack=true --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/jdk.internal.util.random=ALL-UNNAMED"
cd "$S"
mkdir -p test-data
date -u +'start %FT%TZ'; cat /proc/loadavg
nice -n 15 java -Xmx2g $OPENS -Dtest.build.data.basedirectory=$S/test-data \
  -cp "$S/patched-classes:$S/patched-test-classes:$S/conf:$S/classes:$(cat $S/classpath.txt)" \
  TimedRun org.apache.hadoop.hbase.client.TestReplicasClient
rc=$?
date -u +'end %FT%TZ'; cat /proc/loadavg
exit $rc
