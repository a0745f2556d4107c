package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import io.isowatch.core.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adya's certain edges (docs/anomalies.md, "Certain edges"), without session order: WR; WW from
 * the writer of the version a transaction read to that transaction when it then writes the key;
 * RW from every other reader of that version to it; RW from a reader of a key's initial version to
 * every writer of the key that did not read it first (a blind write). With no blind write these
 * are all the edges of the one version order read-modify-write leaves (or a cycle shows there is
 * none); with one, a cycle is a violation whatever the order.
 */
final class AdyaArcs {
  private final List<Arc> arcs;
  /** A key some transaction wrote without reading it first, or null. */
  private final String blindWriter;

  AdyaArcs(final WeakGraph g, final List<Arc> wr) {
    this.arcs = new ArrayList<>(wr);
    // Readers of each version (key, writer node), and its overwriters.
    final Map<String, Map<Integer, List<Read>>> readers = new HashMap<>();
    final Map<String, Map<Integer, List<Integer>>> overwriters = new HashMap<>();
    final Map<String, List<Integer>> blind = new HashMap<>();
    String blindKey = null;
    for (int t = 1; t <= g.n; t++) {
      for (final Read r : g.reads[t]) {
        readers.computeIfAbsent(r.key(), k -> new HashMap<>()).computeIfAbsent(r.writer(), w -> new ArrayList<>()).add(r);
      }
      final Set<String> seen = new HashSet<>();
      for (final Op op : g.txn(t).ops()) {
        if (!op.isWrite() || !seen.add(op.key())) {
          if (op.isRead()) {
            seen.add(op.key());
          }
          continue;
        }
        // The key's first op is this write: a blind write.
        blind.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(t);
        blindKey = blindKey == null ? op.key() : blindKey;
      }
      for (final Read first : g.firstReads(t)) {
        if (g.writes(t, first.key())) {
          overwriters.computeIfAbsent(first.key(), k -> new HashMap<>())
              .computeIfAbsent(first.writer(), w -> new ArrayList<>()).add(t);
        }
      }
    }
    this.blindWriter = blindKey;
    overwriters.forEach((key, byVersion) -> byVersion.forEach((w, us) -> {
      for (final int u : us) {
        if (w != WeakGraph.INIT) {
          arcs.add(new Arc(w, u, EdgeKind.WW, key, g.lastWrite(w, key), null));
        }
        for (final Read r : readers.getOrDefault(key, Map.of()).getOrDefault(w, List.of())) {
          if (r.reader() != u) {
            arcs.add(new Arc(r.reader(), u, EdgeKind.RW, key, r.value(), null));
          }
        }
      }
    }));
    blind.forEach((key, bs) -> {
      for (final int b : bs) {
        for (final Read r : readers.getOrDefault(key, Map.of()).getOrDefault(WeakGraph.INIT, List.of())) {
          if (r.reader() != b) {
            arcs.add(new Arc(r.reader(), b, EdgeKind.RW, key, r.value(), null));
          }
        }
      }
    });
  }

  List<Arc> arcs() {
    return arcs;
  }

  /** A key some transaction wrote without reading it first (its version order is open), or null. */
  String blindWriter() {
    return blindWriter;
  }
}
