package io.isowatch.core.solve;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Issue 14, item 3: the reads of a history with values written more than once that <em>no</em>
 * writer can explain, found without any case split (a read's candidate writers do not depend on
 * which writer any other read took, so such a read is impossible in every case).
 *
 * <p>A counted transaction's external read of {@code k=v} (any read of k before its own first
 * write of k; the brute-force oracles' semantics, docs/anomalies.md) needs a writer: the initial
 * version when v is the initial value, or another counted transaction whose <em>last</em> write of
 * k is v. When there is none, every transaction that wrote {@code k=v} at all is impossible for a
 * reason the history shows: it aborted (Adya G1a), v is not its last write of k (G1b: an
 * intermediate value; also the reason for an indeterminate transaction no counted read made
 * count), or it is the reader itself, writing v only later (a future read, internal). No writer at
 * all is a thin-air read. Such a read violates every level; its anomaly is typed by those reasons:
 * one reason gives the engine's own anomaly (AbortedRead G1a, IntermediateRead G1b, FutureRead
 * internal, ThinAirRead thin-air), several give {@link #MIXED_NAME} with the types joined by "/"
 * (e.g. {@code G1a/internal}): whichever writer was read, it is an anomaly of one of those types.
 */
final class ReadsWithoutWriter {
  /** The name of a read whose writers are impossible for different reasons. */
  static final String MIXED_NAME = "NoPossibleWriter";

  private ReadsWithoutWriter() {}

  /** Why one transaction that wrote the value read cannot be the read's writer. */
  enum Why {
    ABORTED("G1a", "AbortedRead"),
    INTERMEDIATE("G1b", "IntermediateRead"),
    OWN_LATER_WRITE("internal", "FutureRead");

    final String type;
    final String name;

    Why(final String type, final String name) {
      this.type = type;
      this.name = name;
    }
  }

  /** One writer of the value and why it is impossible (an aborted writer may also have overwritten it). */
  record Writer(Transaction txn, Why why, boolean alsoIntermediate) {}

  /** A read no writer explains: the reader, the read's position in its ops, and every writer of the value. */
  record Found(Transaction reader, int op, String key, Long value, List<Writer> writers) {
    String type() {
      if (writers.isEmpty()) {
        return "thin-air";
      }
      return whys().stream().map(w -> w.type).collect(Collectors.joining("/"));
    }

    String name() {
      final Set<Why> whys = whys();
      return writers.isEmpty() ? "ThinAirRead" : whys.size() == 1 ? whys.iterator().next().name : MIXED_NAME;
    }

    private Set<Why> whys() {
      final Set<Why> out = EnumSet.noneOf(Why.class);
      writers.forEach(w -> out.add(w.why()));
      return out;
    }
  }

  /**
   * Every external read (a read of a key before the transaction's own first write of it) by a
   * counted transaction that no possible writer explains, one per (reader, key, value), in history
   * order. Transactions count as for the weak levels ({@link WeakCaseSplit#counted}: an
   * indeterminate one when any counted external read returned its last write), a superset of the
   * search's, so a writer either counts for both or the read is reported by neither.
   */
  static List<Found> find(final History history, final Long initial) {
    final List<Transaction> counted = WeakCaseSplit.counted(history, initial);
    final Set<String> countedIds = new HashSet<>();
    for (final Transaction t : counted) {
      countedIds.add(t.id());
    }
    // (key, value) -> the counted transactions whose last write of key is value.
    final Map<VersionOrderProblem.KeyValue, List<String>> lastWriters = new HashMap<>();
    for (final Transaction t : counted) {
      for (final Map.Entry<String, Long> w : VersionOrderProblem.lastWrites(t).entrySet()) {
        final VersionOrderProblem.KeyValue kv = new VersionOrderProblem.KeyValue(w.getKey(), w.getValue());
        lastWriters.computeIfAbsent(kv, x -> new ArrayList<>(1)).add(t.id());
      }
    }
    final List<Found> out = new ArrayList<>();
    final Set<String> done = new HashSet<>();
    for (final Transaction t : history.transactions()) {
      if (!countedIds.contains(t.id()) || !done.add(t.id())) {
        continue;
      }
      final Set<String> written = new HashSet<>();
      final Set<VersionOrderProblem.KeyValue> seen = new HashSet<>();
      for (int i = 0; i < t.ops().size(); i++) {
        final Op op = t.ops().get(i);
        if (op.isWrite()) {
          written.add(op.key());
          continue;
        }
        final VersionOrderProblem.KeyValue kv = new VersionOrderProblem.KeyValue(op.key(), op.value());
        if (!op.isRead() || written.contains(op.key()) || Objects.equals(op.value(), initial) || !seen.add(kv)) {
          continue;
        }
        final List<String> ws = lastWriters.get(kv);
        if (ws == null || ws.stream().allMatch(id -> id.equals(t.id()))) {
          out.add(new Found(t, i, op.key(), op.value(), writersOf(history, t, kv, countedIds)));
        }
      }
    }
    return out;
  }

  /** Every transaction of the history that wrote kv, with why it is not a possible writer for {@code reader}. */
  private static List<Writer> writersOf(final History history, final Transaction reader,
      final VersionOrderProblem.KeyValue kv, final Set<String> counted) {
    final List<Writer> out = new ArrayList<>();
    final Set<String> seen = new LinkedHashSet<>();
    for (final Transaction w : history.transactions()) {
      boolean wrote = false;
      for (final Op op : w.ops()) {
        wrote |= op.isWrite() && op.key().equals(kv.key()) && Objects.equals(op.value(), kv.value());
      }
      if (!wrote || !seen.add(w.id())) {
        continue;
      }
      final boolean intermediate = !Objects.equals(VersionOrderProblem.lastWrites(w).get(kv.key()), kv.value());
      if (w.id().equals(reader.id())) {
        out.add(new Writer(w, Why.OWN_LATER_WRITE, intermediate));
      } else if (w.status() == TxnStatus.ABORTED) {
        out.add(new Writer(w, Why.ABORTED, intermediate));
      } else if (intermediate) {
        out.add(new Writer(w, Why.INTERMEDIATE, true));
      } else {
        // A last write of the value by a transaction that does not count: an indeterminate one no
        // counted read made count. Its last write being read would make it count, so this cannot
        // happen; if it does, the search must not claim an impossible read.
        throw new IllegalStateException("transaction " + w.id() + " wrote " + kv.key() + "=" + kv.value()
            + " last, yet does not count: " + counted.contains(w.id()));
      }
    }
    return out;
  }

  /** The anomaly of one such read: every level it violates that the check shows, a Let/Then explanation. */
  /**
   * Said by every explanation of this class, and by no other: how the read was found. It marks these
   * anomalies as a result's, not the engine's events ({@link BlindWriteDecision#isResultOnly}).
   */
  static final String WHOLE_HISTORY =
      "This was found by comparing the read with every write of the history, not from a dependency cycle.";

  /** Whether {@code a} is one of this class's anomalies. */
  static boolean madeHere(final Anomaly a) {
    return a.read() != null && a.cycle().isEmpty() && a.explanation().contains(WHOLE_HISTORY);
  }

  static Anomaly anomaly(final Found f, final Long initial, final Set<Level> requested) {
    final Set<Level> violates = Level.strongestFirst(Level.shown(EnumSet.allOf(Level.class), requested));
    final List<Transaction> txns = new ArrayList<>();
    txns.add(f.reader());
    f.writers().stream().map(Writer::txn).filter(w -> !w.id().equals(f.reader().id())).forEach(txns::add);
    return new Anomaly(f.type(), f.name(), violates, txns, List.of(), explanation(f, initial, violates),
        new AnomalyRead(f.reader().id(), f.op(), f.key(), f.value()));
  }

  private static String explanation(final Found f, final Long initial, final Set<Level> violates) {
    final String r = f.reader().id();
    final String kv = f.key() + "=" + value(f.value());
    final StringBuilder let = new StringBuilder("Let:\n");
    final Set<String> named = new LinkedHashSet<>();
    for (final Transaction t : withReaderFirst(f)) {
      if (named.add(t.id())) {
        let.append("  ").append(t.id()).append(" = ").append(describe(t)).append('\n');
      }
    }
    final StringBuilder then = new StringBuilder("Then:\n");
    then.append("  - ").append(r).append(" read ").append(kv).append(", and ").append(value(f.value()))
        .append(" is not the initial value (").append(value(initial)).append(");\n");
    if (f.writers().isEmpty()) {
      then.append("  - no transaction wrote ").append(kv).append(": the value came from thin air.\n");
    } else {
      final List<String> each = new ArrayList<>();
      for (final Writer w : f.writers()) {
        each.add(w.txn().id() + " (" + reason(w, f) + ")");
      }
      then.append("  - the only ").append(each.size() == 1 ? "transaction that wrote " : "transactions that wrote ")
          .append(kv).append(each.size() == 1 ? " is " : " are ").append(joined(each)).append(";\n");
      then.append("  - ").append(rules(f)).append(", so no transaction's write of ").append(kv).append(" could be the one ")
          .append(r).append(" read.\n");
    }
    final List<String> levels = violates.stream().map(Level::name).toList();
    return let + then.toString() + (f.writers().size() > 1
        ? "Values of " + f.key() + " are written more than once here, so which write " + r + " read is not known; "
            + "whichever it was, the read is impossible. " : "")
        + "No dependency graph exists for such a history. " + WHOLE_HISTORY + " This violates " + joined(levels) + ". (" + f.type()
        + ", " + f.name() + ")";
  }

  private static List<Transaction> withReaderFirst(final Found f) {
    final List<Transaction> out = new ArrayList<>();
    out.add(f.reader());
    f.writers().forEach(w -> out.add(w.txn()));
    return out;
  }

  private static String reason(final Writer w, final Found f) {
    final String notLast = f.key() + "=" + value(f.value()) + " is not its last write of " + f.key();
    return switch (w.why()) {
      case ABORTED -> "aborted" + (w.alsoIntermediate() ? "; " + notLast + " either" : "");
      case INTERMEDIATE -> notLast + (w.txn().status() == TxnStatus.UNKNOWN ? ", and its outcome is unknown" : "");
      case OWN_LATER_WRITE -> "the reader itself, which wrote " + f.key() + "=" + value(f.value()) + " only after "
          + "reading it";
    };
  }

  /** The rules that rule out the writers, one per reason present. */
  private static String rules(final Found f) {
    final List<String> out = new ArrayList<>();
    for (final Why why : f.whys()) {
      out.add(switch (why) {
        case ABORTED -> "an aborted write must never be visible (Adya G1a)";
        case INTERMEDIATE -> "only a transaction's last write of a key may be visible (Adya G1b)";
        case OWN_LATER_WRITE -> "a transaction cannot observe its own future write";
      });
    }
    return joined(out);
  }

  private static String describe(final Transaction t) {
    final String ops = t.ops().stream().map(Op::toString).collect(Collectors.joining(" "));
    return "[" + ops + "] (session " + t.session() + ", " + t.status().wire() + (t.line() > 0 ? ", line " + t.line() : "")
        + ")";
  }

  private static String joined(final List<String> parts) {
    return parts.size() == 1 ? parts.get(0)
        : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
  }

  private static String value(final Long v) {
    return v == null ? "null" : v.toString();
  }
}
