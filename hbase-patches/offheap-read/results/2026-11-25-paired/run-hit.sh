#!/bin/bash
cd /work/wt/offheap
R=hbase-patches/offheap-read/results/2026-11-25-paired
echo "== cacheHit $(date -u)" >> $R/commands.txt
echo "JMH_JAR=/tmp/oh/bench3.jar dev-support/paired-forks.sh --rounds 5 --out $R/cacheHit CacheHitBenchmark mode=PATCHED,BASELINE,UPSTREAM -- -prof gc" >> $R/commands.txt
JMH_JAR=/tmp/oh/bench3.jar dev-support/paired-forks.sh --rounds 5 --out $R/cacheHit CacheHitBenchmark mode=PATCHED,BASELINE,UPSTREAM -- -prof gc > $R/cacheHit.log 2>&1
echo "   done $(date -u)" >> $R/commands.txt
