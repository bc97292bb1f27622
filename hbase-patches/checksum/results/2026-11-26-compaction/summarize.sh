#!/bin/bash
# Per JVM (the unit), the CRC32C share of the compacting thread's JFR samples, then the mean over
# the five JVMs per mode with ForkStats' 95% interval (ForkStatsCli --mean) and the <= 3% verdict.
# Usage: summarize.sh BENCHMARKS_JAR   (run in this folder)
JAR=${1:?benchmarks.jar}
cd "$(dirname "$0")"
echo "| JVM | mode | ChecksumUtil from | CRC32C samples / all | share % | CRC32C compaction CPU ms |"
echo "|---|---|---|---:|---:|---:|"
for f in r*-*.txt; do
  m=${f%.txt}; m=${m#*-}
  src=$(grep -o "ChecksumUtil loaded from [^ ]*" "$f" | sed 's#.*/##')
  row=$(grep "^| CRC32C |" "$f")
  k=$(sed -E 's/.*\(([0-9]+) of ([0-9]+)\).*/\1/' <<<"$row")
  n=$(sed -E 's/.*\(([0-9]+) of ([0-9]+)\).*/\2/' <<<"$row")
  cpu=$(awk -F'|' '{print $3}' <<<"$row" | xargs)
  share=$(awk -v k="$k" -v n="$n" 'BEGIN { printf "%.3f", 100 * k / n }')
  echo "| ${f%%-*} | $m | $src | $k / $n | $share | $cpu |"
  printf '%s CRC32C share %%\t%s\n' "$m" "$share" >> /tmp/compaction-shares.$$
done
echo
sort -s -k1,1 /tmp/compaction-shares.$$ | java -cp "$JAR" dev.hbasepatches.jmh.report.ForkStatsCli --mean --at-most 3
rm -f /tmp/compaction-shares.$$
