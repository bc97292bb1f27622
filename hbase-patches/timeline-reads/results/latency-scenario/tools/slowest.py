#!/usr/bin/env python3
# The slowest reads of each failover run with what the servers saw of them.
# Usage: slowest.py <reads dir> <fault> <mode> [n per run, 3]
import csv, glob, gzip, os, re, sys
d, fault, mode = sys.argv[1:4]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 3
for f in sorted(glob.glob(os.path.join(d, "%s-%s-round*.csv.gz" % (fault, mode)))):
    lines = gzip.open(f, "rt").readlines()
    at = float(re.search(r"fault at ([\d.]+)", lines[0]).group(1)) if "fault at" in lines[0] else 0
    rows = list(csv.DictReader(lines[1:]))
    print("%s (fault at %.0f ms)" % (os.path.basename(f), at))
    for r in sorted(rows, key=lambda r: -float(r["latency_ms"]))[:n]:
        print("  start %+8.1f ms from the fault, lag %5.1f, latency %6.1f ms, stale %s, server Gets: %s" % (
            float(r["start_ms"]) - at, float(r["start_lag_ms"]), float(r["latency_ms"]), r["stale"], r["server_gets"]))
