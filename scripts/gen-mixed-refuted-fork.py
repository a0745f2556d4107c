#!/usr/bin/env python3
# A JSONL history for `isowatch check --levels MIXED` (docs/benchmarks.md, "MIXED: counterexamples of
# refuted forks"): N read-modify-write transactions on 1,000 keys in 20 sessions (a quarter declare SER
# and read the latest versions, the rest RC, one RC read in 20 stale: lost updates), then 7
# transactions on a fresh key whose fork the fork search refutes. Usage: gen-mixed-refuted-fork.py N > FILE
import json, random, sys
n = int(sys.argv[1]); rnd = random.Random(7)
versions = {}; nxt = 1; out = []
for i in range(n):
    ser = rnd.randrange(4) == 0
    x = "k%d" % rnd.randrange(1000); y = "k%d" % rnd.randrange(1000)
    while y == x: y = "k%d" % rnd.randrange(1000)
    vx = versions.setdefault(x, [0]); vy = versions.setdefault(y, [0])
    stale = (not ser) and len(vx) > 1 and rnd.randrange(20) == 0
    rx = vx[-2] if stale else vx[-1]; ry = vy[-1]
    shape = rnd.randrange(5)
    ops = [{"t": "r", "k": x, "v": rx}]
    if shape >= 2: ops.append({"t": "r", "k": y, "v": ry})
    if shape < 4:
        ops.append({"t": "w", "k": x, "v": nxt}); vx.append(nxt); nxt += 1
    if shape in (2, 3):
        ops.append({"t": "w", "k": y, "v": nxt}); vy.append(nxt); nxt += 1
    out.append({"session": "s%d" % rnd.randrange(20), "txn": "T%d" % (i + 1), "status": "committed", "ops": ops,
                "level": "SER" if ser else "RC"})
# a fork the fork search refutes: F3 and F4 both read fx=2; F5 (RA) reads F3's write after F4 in its session
small = [("F1", "SER", [("r", 0), ("w", 1)]), ("F2", "SER", [("r", 1), ("w", 2)]), ("F3", "PC", [("r", 2), ("w", 3)]),
         ("F4", "RC", [("r", 2), ("w", 4)]), ("F5", "RA", [("r", 3), ("w", 5)]), ("F6", "PC", [("r", 5), ("w", 6)]),
         ("F7", "CC", [("r", 6)])]
for txn, level, ops in small:
    out.append({"session": "f1", "txn": txn, "status": "committed", "level": level,
                "ops": [{"t": t, "k": "fx", "v": (10**9 + v if v else 0)} for t, v in ops]})
for o in out: print(json.dumps(o))
