package io.isowatch.core.report;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The notation shared by the text, JSON and DOT reports: edges, cycles, levels, transactions. */
final class Notation {
  private Notation() {}

  /** The key and value an edge is about, {@code x=5}, or empty for SO and RT edges. */
  static String keyValue(final Edge e) {
    return e.key() == null ? "" : e.key() + "=" + (e.value() == null ? "null" : e.value());
  }

  /** {@code WR(x=5)}, or just {@code SO} for an edge without a key. */
  static String compactLabel(final Edge e) {
    return e.key() == null ? e.kind().name() : e.kind() + "(" + keyValue(e) + ")";
  }

  /** {@code WR x=5}, or just {@code SO}: the shorter form used on graph arrows. */
  static String spacedLabel(final Edge e) {
    return e.key() == null ? e.kind().name() : e.kind() + " " + keyValue(e);
  }

  /**
   * The cycle as one line, {@code T1 -WR(x=5)-> T2 -RW(x=5)-> T1}; empty for non-cycle anomalies.
   */
  static String cycle(final Anomaly a) {
    final List<Edge> cycle = a.cycle();
    if (cycle.isEmpty()) {
      return "";
    }
    final StringBuilder sb = new StringBuilder(cycle.get(0).from());
    for (final Edge e : cycle) {
      sb.append(" -").append(compactLabel(e)).append("-> ").append(e.to());
    }
    return sb.toString();
  }

  /**
   * The levels in a fixed order, weakest first (PL2, RC, RA, CC, PC, SI, RR, SER, SSER), whatever the
   * set's order: the order verdicts are listed in, so the strongest level that holds is read last.
   */
  static List<Level> ordered(final Collection<Level> levels) {
    return Stream.of(Level.values()).filter(levels::contains).toList();
  }

  /** {@code SSER, SER, SI}: the levels an anomaly violates, strongest first (the Avro contracts' order). */
  static String joined(final Collection<Level> levels) {
    return Level.strongestFirst(levels).stream().map(Level::name).collect(Collectors.joining(", "));
  }

  /** What a transaction's ops do not show: {@code "  aborted  @10..20"}, or empty. */
  static String statusAndTimes(final Transaction t) {
    final StringBuilder sb = new StringBuilder();
    if (t.status() != TxnStatus.COMMITTED) {
      sb.append("  ").append(t.status().wire());
    }
    if (t.hasTimes()) {
      sb.append("  @").append(t.start()).append("..").append(t.end());
    }
    return sb.toString();
  }

  /** {@code LostUpdate (G-single) violates SSER, SER, SI}; just the type when there is no name. */
  static String headline(final Anomaly a) {
    final String what = a.name() != null ? a.name() + " (" + a.type() + ")" : a.type();
    return what + " violates " + (a.violates().isEmpty() ? "no level" : joined(a.violates()));
  }
}
