#!/usr/bin/env python3
"""refcheck: a straightforward, independent reference checker for mini-transaction histories.

It reads IsoWatch's native JSONL format (README, "History formats") and decides SSER, SER and SI the
textbook way, in plain CPython with no dependencies, so that `isowatch check` can be compared with it
(scripts/bench-cli.sh, docs/benchmarks.md) and so that the two can be run side by side on the same
file as an independent cross-check. It shares no code and no algorithm with IsoWatch's engine: no
incremental cycle search, no segmentation, no reorder buffer.

Scope: mini-transaction histories, where every write of a key is preceded in its transaction by a
read of that key (read-modify-write), and written values are unique per key. A blind write makes
the version order unknown; refcheck then answers UNKNOWN for every level unless a violation that
does not depend on the version order was found. It does not name anomalies: it answers, per level,
SATISFIED, VIOLATED (with one reason) or UNKNOWN.

Semantics (the MTC paper, ../shared/papers): committed transactions only; WR from the unique writer
of each value read (the implicit initial transaction writes --initial-value to every key); WW from
the transaction that wrote the version a read-modify-write read to the one that overwrote it; RW
from a reader of a version to the transaction that overwrote it; SO from a session's order (`seq`,
else line order). Two committed transactions that overwrite the same version diverge (a lost update)
and violate all three levels, as does a read of a value no committed transaction wrote or a read
that contradicts the transaction's own earlier write.
- SER: SO, WR, WW and RW together are acyclic.
- SI: (SO | WR | WW) ; RW? is acyclic (no cycle without two adjacent RW edges, Cerone et al.).
- SSER: SER plus real time (T1 ends before T2 starts, by the `start` and `end` timestamps).

Usage: scripts/refcheck.py [--initial-value N|null] [--levels SSER,SER,SI] FILE.jsonl
Prints one JSON object {"verdicts": {...}, "reasons": {...}, "transactions": n}; exits 0 when every
requested level is SATISFIED, 1 otherwise, 2 on unreadable input.
"""
import argparse
import json
import sys
from collections import defaultdict

INIT = 0  # node id of the implicit initial transaction


class Violation(Exception):
    """A violation of every level that does not depend on the version order."""


def parse_initial(text):
    return None if text == "null" else int(text)


def load(path):
    """Returns the transactions in input order as dicts with parsed fields."""
    txns = []
    opener = sys.stdin if path == "-" else open(path, "r", encoding="utf-8")
    with opener as f:
        for line_no, line in enumerate(f, start=1):
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            t["_line"] = line_no
            txns.append(t)
    return txns


class History:
    def __init__(self, raw, initial_value):
        self.initial_value = initial_value
        committed = [t for t in raw if t.get("status", "committed") == "committed"]
        self.ids = ["<init>"] + [t["txn"] for t in committed]
        self.txns = [None] + committed
        self.n = len(self.txns)
        # Values written by transactions that did not commit: a read of one is an aborted read.
        self.uncommitted_writes = set()
        for t in raw:
            if t.get("status", "committed") != "committed":
                for op in t["ops"]:
                    if op["t"] == "w":
                        self.uncommitted_writes.add((op["k"], op.get("v")))

    def name(self, node):
        return self.ids[node]


def build_edges(h):
    """Returns (dependency edges as (u, v, kind) with kind in {SO, WR, WW, RW}, blind)."""
    writer = {}  # (key, value) -> node, for the last write of a key in a transaction (its version)
    intermediate = {}  # (key, value) -> node, for a write its own transaction overwrote
    ext_reads = []  # (node, key, value) of reads before the transaction's own write of the key
    overwrites = []  # (node, key, value read and overwritten)
    blind = False
    edges = []
    keys = set()
    for node in range(1, h.n):
        t = h.txns[node]
        own = {}
        read_first = {}
        for op in t["ops"]:
            k, v = op["k"], op.get("v")
            keys.add(k)
            if op["t"] == "r":
                if k in own:
                    if own[k] != v:
                        raise Violation("%s read %s=%r after writing %s=%r" % (t["txn"], k, v, k, own[k]))
                    continue
                if k not in read_first:
                    read_first[k] = v
                    ext_reads.append((node, k, v))
                elif read_first[k] != v:
                    raise Violation("%s read %s twice with different values, %r and %r (a non-repeatable read)"
                                    % (t["txn"], k, read_first[k], v))
            elif op["t"] == "w":
                if (k, v) in writer or (k, v) in intermediate:
                    raise Violation("value %s=%r is written twice" % (k, v))
                writer[(k, v)] = node
                if k not in own:
                    if k in read_first:
                        overwrites.append((node, k, read_first[k]))
                    else:
                        blind = True
                else:
                    intermediate[(k, own[k])] = writer.pop((k, own[k]))
                own[k] = v
            else:
                raise ValueError("op type %r is not a register read or write" % op["t"])
    for k in keys:
        writer.setdefault((k, h.initial_value), INIT)

    overwriter = {}
    for node, k, v in overwrites:
        if (k, v) in overwriter:
            raise Violation("%s and %s both overwrote %s=%r (a lost update)"
                            % (h.name(overwriter[(k, v)]), h.name(node), k, v))
        overwriter[(k, v)] = node
    for node, k, v in ext_reads:
        w = writer.get((k, v))
        if w is None:
            if (k, v) in intermediate:
                raise Violation("%s read %s=%r, which %s overwrote before it committed (an intermediate read)"
                                % (h.name(node), k, v, h.name(intermediate[(k, v)])))
            if (k, v) in h.uncommitted_writes:
                raise Violation("%s read %s=%r, written by a transaction that did not commit" % (h.name(node), k, v))
            raise Violation("%s read %s=%r, which no transaction wrote" % (h.name(node), k, v))
        if w != node:
            edges.append((w, node, "WR"))
        o = overwriter.get((k, v))
        if o is not None and o != node:
            edges.append((node, o, "RW"))
    for node, k, v in overwrites:
        w = writer[(k, v)]
        if w != node:
            edges.append((w, node, "WW"))
    edges.extend(session_edges(h))
    return edges, blind


def session_edges(h):
    sessions = defaultdict(list)
    for node in range(1, h.n):
        t = h.txns[node]
        sessions[t["session"]].append((t.get("seq", t["_line"]), node))
    edges = [(INIT, node, "SO") for node in range(1, h.n)]
    for members in sessions.values():
        members.sort()
        for (_, a), (_, b) in zip(members, members[1:]):
            edges.append((a, b, "SO"))
    return edges


def real_time_edges(h, first_free):
    """Real-time order through one chain of time points: T -> P(end T) -> ... -> P(e) -> T' for the
    latest end e before T' starts. Reachability between transactions equals the real-time order, with
    O(n log n) edges instead of O(n^2). Returns (edges, number of extra nodes)."""
    ends = sorted({h.txns[node]["end"] for node in range(1, h.n)})
    point = {e: first_free + i for i, e in enumerate(ends)}
    edges = [(point[a], point[b], "RT") for a, b in zip(ends, ends[1:])]
    import bisect
    for node in range(1, h.n):
        t = h.txns[node]
        edges.append((node, point[t["end"]], "RT"))
        i = bisect.bisect_left(ends, t["start"]) - 1
        if i >= 0:
            edges.append((point[ends[i]], node, "RT"))
    return edges, len(ends)


def acyclic(n, adjacency):
    """Kahn's algorithm: True when the graph on nodes 0..n-1 has no cycle."""
    indegree = [0] * n
    for targets in adjacency:
        for v in targets:
            indegree[v] += 1
    ready = [v for v in range(n) if indegree[v] == 0]
    seen = 0
    while ready:
        u = ready.pop()
        seen += 1
        for v in adjacency[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return seen == n


def adjacency_of(n, edges, kinds):
    adjacency = [[] for _ in range(n)]
    for u, v, kind in edges:
        if kind in kinds:
            adjacency[u].append(v)
    return adjacency


def si_adjacency(n, edges):
    """(SO | WR | WW) ; RW? as an adjacency list."""
    rw = [[] for _ in range(n)]
    for u, v, kind in edges:
        if kind == "RW":
            rw[u].append(v)
    adjacency = [[] for _ in range(n)]
    for u, v, kind in edges:
        if kind != "RW":
            adjacency[u].append(v)
            adjacency[u].extend(rw[v])
    return adjacency


def check(h, levels):
    verdicts, reasons = {}, {}
    try:
        edges, blind = build_edges(h)
    except Violation as v:
        for level in levels:
            verdicts[level], reasons[level] = "VIOLATED", str(v)
        return verdicts, reasons
    for level in levels:
        if level == "SI":
            ok = acyclic(h.n, si_adjacency(h.n, edges))
        elif level == "SER":
            ok = acyclic(h.n, adjacency_of(h.n, edges, {"SO", "WR", "WW", "RW"}))
        elif level == "SSER":
            rt, extra = real_time_edges(h, h.n)
            ok = acyclic(h.n + extra, adjacency_of(h.n + extra, edges + rt, {"SO", "WR", "WW", "RW", "RT"}))
        else:
            raise ValueError("unknown level " + level)
        if not ok:
            verdicts[level], reasons[level] = "VIOLATED", "the %s dependency graph has a cycle" % level
        elif blind:
            verdicts[level], reasons[level] = "UNKNOWN", "blind writes leave the version order unknown"
        else:
            verdicts[level] = "SATISFIED"
    return verdicts, reasons


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--initial-value", default="0")
    parser.add_argument("--levels", default="SSER,SER,SI")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    levels = [level.strip().upper() for level in args.levels.split(",") if level.strip()]
    try:
        raw = load(args.file)
        h = History(raw, parse_initial(args.initial_value))
    except (OSError, ValueError, KeyError) as e:
        print("refcheck: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    verdicts, reasons = check(h, levels)
    print(json.dumps({"verdicts": verdicts, "reasons": reasons, "transactions": h.n - 1}))
    return 0 if all(v == "SATISFIED" for v in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
