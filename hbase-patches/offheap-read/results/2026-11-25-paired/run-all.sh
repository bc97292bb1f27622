#!/bin/bash
# Runs the offheap paired-fork measurements one after another; each fork takes the JMH lock.
cd /work/wt/offheap
R=hbase-patches/offheap-read/results/2026-11-25-paired
run() {
  name=$1; shift
  echo "== $name $(date -u)" >> $R/commands.txt
  echo "JMH_JAR=/tmp/oh/bench3.jar dev-support/paired-forks.sh --rounds 5 --cpu cpuNanos --out $R/$name OffHeapReadBenchmark mode=PATCHED,BASELINE,UPSTREAM -- $*" >> $R/commands.txt
  JMH_JAR=/tmp/oh/bench3.jar dev-support/paired-forks.sh --rounds 5 --cpu cpuNanos --out $R/$name OffHeapReadBenchmark mode=PATCHED,BASELINE,UPSTREAM -- "$@" > $R/$name.log 2>&1
  echo "   done $(date -u)" >> $R/commands.txt
}
run multiGet-1000-t2 -p workload=multiGet -p valueSize=1000 -t 2 -prof gc -wi 4 -w 3s -i 5 -r 2s
run scan-1000-t1 -p workload=scan -p valueSize=1000 -t 1 -prof gc -wi 4 -w 3s -i 5 -r 2s
run churn-1000-t1 -p workload=churn -p valueSize=1000 -t 1 -prof gc -wi 4 -w 3s -i 5 -r 2s
run multiGet-1000-t1 -p workload=multiGet -p valueSize=1000 -t 1 -prof gc -wi 4 -w 3s -i 5 -r 2s
run multiGet-100-t1 -p workload=multiGet -p valueSize=100 -t 1 -prof gc -wi 4 -w 3s -i 5 -r 2s
