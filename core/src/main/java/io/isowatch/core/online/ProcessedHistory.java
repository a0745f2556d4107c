package io.isowatch.core.online;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The transactions a segment has processed, as a {@link History} for the search of version orders
 * ({@code core.solve}): sessions one after the other, each in the engine's session order (its
 * rank), and each transaction's seq cleared so that the list order is the session order the
 * engine used. Buffered transactions are not in it, as they are not in the engine's verdicts yet.
 */
final class ProcessedHistory {
  private ProcessedHistory() {}

  static History of(final OnlineState s) {
    final TxnIndex txns = s.txns;
    final List<Integer> slots = new ArrayList<>();
    for (int slot = 1; slot < txns.size(); slot++) {
      if (txns.piPos(slot) >= 0) {
        slots.add(slot);
      }
    }
    final Integer[] ordered = slots.toArray(new Integer[0]);
    Arrays.sort(ordered, (a, b) -> {
      final int c = Integer.compare(txns.session(a), txns.session(b));
      return c != 0 ? c : Long.compare(txns.rank(a), txns.rank(b));
    });
    final List<Transaction> out = new ArrayList<>(ordered.length);
    for (final int slot : ordered) {
      out.add(txns.txn(slot).withSeq(Transaction.NO_SEQ));
    }
    return new History(out);
  }

  /**
   * A part of the processed history for a bounded search of violations ({@code
   * MonotoneViolations.ofPart}): the committed transactions among the last {@code last} processed,
   * whole, and for each value one of them read from an earlier transaction, that writer cut down to
   * the writes read (a stand-in: same id, session and rank, fewer ops). Sessions one after the
   * other in rank order, seqs cleared, as {@link #of}. Every read of the part then has its writer
   * in the part, or reads {@code initial}. Null when a read's writer is not the last write of a
   * processed committed transaction (aborted, indeterminate, intermediate, not processed yet): the
   * part is only built where the argument of {@code MonotoneViolations.ofPart} holds. {@code real}
   * gets each id of the part with its transaction as processed (a stand-in's whole transaction).
   */
  static History part(final OnlineState s, final int last, final Long initial, final Map<String, Transaction> real) {
    final TxnIndex txns = s.txns;
    final int released = txns.released();
    final int from = Math.max(0, released - last);
    final Set<Integer> whole = new HashSet<>();
    // (key, value) read by the part from outside it -> found (the writer's slot) or not yet (-1)
    final Map<List<Object>, Integer> wanted = new LinkedHashMap<>();
    final Set<List<Object>> writtenInPart = new HashSet<>();
    for (int i = from; i < released; i++) {
      final int slot = txns.releasedAt(i);
      final Transaction t = txns.txn(slot);
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      whole.add(slot);
      for (final Map.Entry<String, Long> w : AppendOrderWitness.lastWrites(t).entrySet()) {
        writtenInPart.add(List.of(w.getKey(), Objects.requireNonNullElse(w.getValue(), NULL)));
      }
    }
    for (final int slot : whole) {
      for (final Map.Entry<String, Long> r : AppendOrderWitness.firstExternalReads(txns.txn(slot)).entrySet()) {
        if (Objects.equals(r.getValue(), initial)) {
          continue;
        }
        final List<Object> kv = List.of(r.getKey(), Objects.requireNonNullElse(r.getValue(), NULL));
        if (!writtenInPart.contains(kv)) {
          wanted.put(kv, -1);
        }
      }
    }
    int missing = wanted.size();
    for (int i = from - 1; i >= 0 && missing > 0; i--) {
      final int slot = txns.releasedAt(i);
      final Transaction t = txns.txn(slot);
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      for (final Map.Entry<String, Long> w : AppendOrderWitness.lastWrites(t).entrySet()) {
        final List<Object> kv = List.of(w.getKey(), Objects.requireNonNullElse(w.getValue(), NULL));
        final Integer found = wanted.get(kv);
        if (found != null && found < 0) {
          wanted.put(kv, slot);
          missing--;
        }
      }
    }
    if (missing > 0) {
      return null;
    }
    final Map<Integer, Set<String>> standIns = new HashMap<>();
    for (final Map.Entry<List<Object>, Integer> e : wanted.entrySet()) {
      standIns.computeIfAbsent(e.getValue(), x -> new HashSet<>()).add((String) e.getKey().get(0));
    }
    final List<Integer> slots = new ArrayList<>(whole);
    slots.addAll(standIns.keySet());
    final Integer[] ordered = slots.toArray(new Integer[0]);
    Arrays.sort(ordered, (a, b) -> {
      final int c = Integer.compare(txns.session(a), txns.session(b));
      return c != 0 ? c : Long.compare(txns.rank(a), txns.rank(b));
    });
    final List<Transaction> out = new ArrayList<>(ordered.length);
    for (final int slot : ordered) {
      final Transaction t = txns.txn(slot);
      real.put(t.id(), t);
      final Set<String> keys = standIns.get(slot);
      out.add(keys == null ? t.withSeq(Transaction.NO_SEQ) : new Transaction(t.id(), t.session(), Transaction.NO_SEQ,
          t.status(), t.start(), t.end(), lastWritesOf(t, keys), t.tenant(), t.level(), t.line()));
    }
    return new History(out);
  }

  /** The last write of each of {@code keys} in {@code t}, in the order of {@code t}'s ops. */
  private static List<Op> lastWritesOf(final Transaction t, final Set<String> keys) {
    final List<Op> ops = t.ops();
    final List<Op> out = new ArrayList<>(keys.size());
    final Set<String> seen = new HashSet<>();
    for (int i = ops.size() - 1; i >= 0; i--) {
      final Op op = ops.get(i);
      if (op.isWrite() && keys.contains(op.key()) && seen.add(op.key())) {
        out.add(0, op);
      }
    }
    return out;
  }

  /** Stands for a null value in the keys of {@link #part}'s maps (List.of refuses null). */
  private static final Object NULL = new Object();
}
