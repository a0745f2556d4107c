package io.isowatch.core.online;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Transformations of generated histories shared by the segmentation and checkpoint property tests. */
final class HistoryMutations {
  private HistoryMutations() {}

  /**
   * Inserts, every {@code every} transactions, a snapshot transaction (its own session, reading
   * every key seen so far at the value last written to it in source order) just after the
   * transaction before it in time, so that cuts aligned on snapshots have somewhere to go.
   */
  static History withSnapshots(final History h, final int every) {
    final Map<String, Long> latest = new java.util.TreeMap<>();
    final History.Builder b = History.builder();
    int n = 0;
    long seq = 0;
    for (final Transaction t : h.transactions()) {
      b.add(t);
      for (final Op op : t.ops()) {
        latest.putIfAbsent(op.key(), 0L);
        if (op.isWrite()) {
          latest.put(op.key(), op.value());
        }
      }
      if (++n % every == 0 && t.end() != Transaction.NO_TIME) {
        final List<Op> reads = new ArrayList<>();
        latest.forEach((k, v) -> reads.add(Op.read(k, v)));
        b.add(new Transaction("snap-" + seq, "snapshots", seq, io.isowatch.core.history.TxnStatus.COMMITTED,
            t.end() + 1, t.end() + 2, reads, null, null, 0));
        seq++;
      }
    }
    return b.build();
  }

  /**
   * Makes read-only transactions read, with probability {@code rate}, a value of the key written
   * some way back in the source order (sometimes far beyond any horizon): stale reads, which SER
   * and SSER forbid when real time or the other edges say so.
   */
  static History withStaleReads(final History h, final Random rnd, final double rate) {
    final Map<String, List<Long>> written = new HashMap<>();
    final History.Builder b = History.builder();
    for (final Transaction t : h.transactions()) {
      Transaction out = t;
      final boolean readOnly = t.ops().stream().noneMatch(Op::isWrite);
      if (readOnly && rnd.nextDouble() < rate) {
        final List<Op> ops = new ArrayList<>();
        for (final Op op : t.ops()) {
          final List<Long> values = written.get(op.key());
          if (values != null && values.size() > 2) {
            final int back = 2 + rnd.nextInt(Math.min(values.size() - 1, rnd.nextBoolean() ? 5 : 2_000));
            ops.add(Op.read(op.key(), values.get(Math.max(0, values.size() - back))));
          } else {
            ops.add(op);
          }
        }
        out = new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(),
            t.level(), t.line());
      }
      for (final Op op : t.ops()) {
        if (op.isWrite()) {
          written.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
        }
      }
      b.add(out);
    }
    return b.build();
  }
}
