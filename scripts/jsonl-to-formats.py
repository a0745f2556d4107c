#!/usr/bin/env python3
"""Writes a generated native JSONL history (./isowatch generate) as Elle EDN and as Aion JSON, for
scripts/bench-cli.sh --formats: the same transactions in the other formats isowatch check reads.

    python3 scripts/jsonl-to-formats.py H.jsonl H.edn H-aion.json [H-elle.json]

Elle EDN: an :invoke at each transaction's start and an :ok at its end, :process = the session's
number, :time in ns from the first start; reads of the invoke are nil. Aion: integer keys, sessions
and transaction ids (the line number), sts/cts in µs. Expects isowatch generate's names (sessions
s<N>, keys k<N>) and committed transactions with times. Elle JSON (optional fourth file): the EDN's
ops as JSON lines, one object per line as elle-cli reads them, keywords as strings, nil as null.
"""
import json
import sys


def main(src, edn_out, aion_out, elle_json_out=None):
    txns = [json.loads(line) for line in open(src, encoding="utf-8")]
    events = []
    for t in txns:
        process = int(t["session"][1:])
        invoke = " ".join("[:r :%s nil]" % o["k"] if o["t"] == "r" else "[:w :%s %d]" % (o["k"], o["v"])
                          for o in t["ops"])
        ok = " ".join("[:%s :%s %d]" % (o["t"], o["k"], o["v"]) for o in t["ops"])
        events.append((t["start"], 0, process, ":invoke", invoke))
        events.append((t["end"], 1, process, ":ok", ok))
    events.sort(key=lambda e: (e[0], e[1]))
    t0 = events[0][0]
    with open(edn_out, "w", encoding="utf-8") as f:
        for i, (time, _, process, kind, value) in enumerate(events):
            f.write("{:index %d, :time %d, :type %s, :process %d, :f :txn, :value [%s]}\n"
                    % (i, (time - t0) * 1000, kind, process, value))
    if elle_json_out:
        with open(elle_json_out, "w", encoding="utf-8") as f:
            for i, (time, _, process, kind, value) in enumerate(events):
                f.write('{"index":%d,"time":%d,"type":"%s","process":%d,"f":"txn","value":[%s]}\n'
                        % (i, (time - t0) * 1000, kind[1:], process, elle_json_value(value)))
    with open(aion_out, "w", encoding="utf-8") as f:
        f.write("[\n")
        for i, t in enumerate(txns):
            ops = ", ".join('{"t": "%s", "k": %s, "v": %d}' % (o["t"], o["k"][1:], o["v"]) for o in t["ops"])
            f.write('%s{"tid": %d, "sid": %s, "sts": {"p": %d, "l": 0}, "cts": {"p": %d, "l": 0}, "ops": [%s]}\n'
                    % ("," if i else "", i + 1, t["session"][1:], t["start"], t["end"], ops))
        f.write("]\n")


def elle_json_value(edn_value):
    """[:r :k1 nil] [:w :k1 2] as ["r","k1",null],["w","k1",2]."""
    mops = []
    for mop in edn_value[1:-1].split("] [") if edn_value else []:
        f, k, v = mop.split(" ")
        mops.append('["%s","%s",%s]' % (f[1:], k[1:], "null" if v == "nil" else v))
    return ",".join(mops)


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: jsonl-to-formats.py H.jsonl H.edn H-aion.json [H-elle.json]")
    main(*sys.argv[1:])
