#!/usr/bin/env python3
# The reads whose primary Get was paused (3%-paused fault): how long after the primary's Get the
# first secondary Get reached a server (the hedge delay as the servers saw it), the read's
# latency, and how many reads over 5 ms had no paused primary at all. Usage: paused-reads.py <reads dir>
import csv, glob, gzip, os, re, statistics
import sys
GET = re.compile(r"r(\d+)@(-?[\d.]+)\+([\d.]+)(p?)")
d = sys.argv[1]
print("| mode | round | reads | paused | hedged by 10 ms | by 20 ms | by 45 ms | later/never | paused read latency p50 / max ms | reads over 5 ms: not paused | reads over p99 latency: not paused |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for f in sorted(glob.glob(os.path.join(d, "pause3pct200ms-*.csv.gz"))):
    mode, rnd = os.path.basename(f)[:-7].split("-")[1:]
    lines = [l for l in gzip.open(f, "rt") if not l.startswith("#")]
    rows = list(csv.DictReader(lines))
    lat_all = sorted(float(r["latency_ms"]) for r in rows)
    p99 = lat_all[int(0.99 * len(lat_all)) - 1]
    paused, gaps, lats, over5_np, overp99_np = 0, [], [], 0, 0
    for r in rows:
        gets = [(int(a), float(b), float(c), p == "p") for a, b, c, p in GET.findall(r["server_gets"])]
        lat = float(r["latency_ms"])
        p = [g for g in gets if g[0] == 0 and g[3]]
        if not p:
            if lat > 5: over5_np += 1
            if lat > p99: overp99_np += 1
            continue
        paused += 1
        lats.append(lat)
        sec = [g[1] for g in gets if g[0] != 0]
        gaps.append(min(sec) - p[0][1] if sec else float("inf"))
    b = lambda lo, hi: sum(1 for g in gaps if lo < g <= hi)
    print("| %s | %s | %d | %d | %d | %d | %d | %d | %.1f / %.1f | %d | %d |" % (mode, rnd.replace("round", ""), len(rows), paused,
          b(-1e9, 10), b(10, 20), b(20, 45), b(45, float("inf")),
          statistics.median(lats) if lats else 0, max(lats) if lats else 0, over5_np, overp99_np))
