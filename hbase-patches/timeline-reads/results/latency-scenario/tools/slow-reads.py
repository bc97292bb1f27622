#!/usr/bin/env python3
# Where the time of each slow read went, from the scenario's per-read files (reads/*.csv):
# each read's start lag (pool thread start after the intended start), the Gets the servers saw
# for its row (replica, arrival after the intended start, time served, paused), and the gap
# between the winning Get's end on the server and the read's end on the client.
# Usage: slow-reads.py <reads dir> [threshold ms for steady faults, 5] [for failover, 50]
import csv, glob, gzip, os, re, sys, collections

d = sys.argv[1]
t_steady = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
t_fail = float(sys.argv[3]) if len(sys.argv) > 3 else 50.0
GET = re.compile(r"r(\d+)@(-?[\d.]+)\+([\d.]+)(p?)")

def classify(lat, lag, gets, stale, thr):
    prim = [g for g in gets if g[0] == 0]
    sec = [g for g in gets if g[0] != 0]
    paused = any(g[3] for g in prim)
    if lag >= lat / 2:
        return "client thread started late"
    first = min((g[1] for g in gets), default=None)
    if first is None:
        return "no Get seen on a server"
    if paused and not stale:
        return "primary paused, answered by it (no hedge in time)"
    if paused and stale:
        s1 = min(g[1] for g in sec) if sec else None
        if s1 is not None and s1 - lag >= 40:
            return "primary paused, hedge sent only at the cap (budget)"
        if s1 is not None and s1 - lag > thr:
            return "primary paused, hedge sent late (delay)"
    win = None
    if stale and sec:
        win = min(sec, key=lambda g: g[1] + g[2])
    elif prim:
        win = min(prim, key=lambda g: g[1] + g[2])
    if win is None:
        return "winner's Get not seen"
    done = win[1] + win[2]
    if lat - done >= lat / 2:
        return "answer reached the client late (after the server finished)"
    if first - lag >= lat / 2:
        return "request reached the server late"
    if win[2] >= lat / 2:
        return "served slowly by the server"
    if stale and sec and min(g[1] for g in sec) - lag >= lat / 2:
        return "hedge sent late (waited for the delay)"
    return "spread over several steps"

rows = collections.defaultdict(collections.Counter)
totals = collections.Counter()
for f in sorted(glob.glob(os.path.join(d, "*.csv.gz"))):
    name = os.path.basename(f)[:-7]
    fault, mode, rnd = name.split("-")
    thr = t_fail if fault in ("gracefulStop", "abort") else t_steady
    with gzip.open(f, "rt") as fh:
        lines = [l for l in fh if not l.startswith("#")]
    for r in csv.DictReader(lines):
        totals[(fault, mode)] += 1
        lat = float(r["latency_ms"])
        if lat <= thr:
            continue
        gets = [(int(a), float(b), float(c), p == "p") for a, b, c, p in GET.findall(r["server_gets"])]
        cat = classify(lat, float(r["start_lag_ms"]), gets, r["stale"] == "1", thr)
        rows[(fault, mode)][cat] += 1
cats = sorted({c for v in rows.values() for c in v})
print("| fault | mode | reads | over threshold | " + " | ".join(cats) + " |")
print("|---|---|---|---|" + "---|" * len(cats))
for key in sorted(totals):
    c = rows[key]
    thr = t_fail if key[0] in ("gracefulStop", "abort") else t_steady
    print("| %s | %s | %d | %d (> %g ms) | %s |" % (key[0], key[1], totals[key], sum(c.values()),
          thr, " | ".join(str(c[x]) for x in cats)))
