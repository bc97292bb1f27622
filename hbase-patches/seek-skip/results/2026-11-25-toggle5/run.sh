#!/bin/bash
# PATCHED vs BASELINE in one fork (ABBA blocks), five forks, timerangeMiss with 1 file; AbbaPairs
# gives one ratio per fork and ForkStats the interval over the five forks.
set -euo pipefail
jar=${JMH_JAR:-jmh-benchmarks/target/benchmarks.jar}
out=$(dirname "$0")
flock /tmp/hbasepatches-jmh.lock java -jar "$jar" SeekSkipToggleBenchmark -p a=BASELINE -p b=PATCHED \
  -p shape=timerangeMiss -p files=1 -f 5 -rf json -rff "$out/baseline-BP-timerangeMiss-1.json" > "$out/baseline-BP-timerangeMiss-1.log" 2>&1
java -cp "$jar" dev.hbasepatches.jmh.report.AbbaPairs "$out/baseline-BP-timerangeMiss-1.json" > "$out/abba-baseline-BP-timerangeMiss-1.md"
