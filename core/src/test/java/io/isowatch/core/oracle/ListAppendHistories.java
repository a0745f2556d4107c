package io.isowatch.core.oracle;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random small list-append histories with seq numbers, for the streaming checker's property tests. */
public final class ListAppendHistories {
  private ListAppendHistories() {}

  /**
   * A random execution with seq per session: each transaction reads a snapshot (the latest one
   * usually, a stale one sometimes) plus its own appends; some abort, some are indeterminate, some
   * reads are corrupted; the execution often ends with a read of every key.
   */
  public static History random(final Random random) {
    final int count = 3 + random.nextInt(10);
    final String[] keys = {"x", "y", "z"};
    final List<Map<String, List<Long>>> states = new ArrayList<>();
    states.add(new HashMap<>());
    final List<Transaction> txns = new ArrayList<>();
    final Map<String, Long> seqs = new HashMap<>();
    long next = 1;
    for (int i = 0; i < count; i++) {
      final int snap = random.nextInt(4) == 0 ? random.nextInt(states.size()) : states.size() - 1;
      final Map<String, List<Long>> snapshot = states.get(snap);
      final Map<String, List<Long>> own = new HashMap<>();
      final List<Op> ops = new ArrayList<>();
      final boolean last = i == count - 1 && random.nextBoolean();
      final int size = last ? keys.length : 1 + random.nextInt(3);
      for (int o = 0; o < size; o++) {
        final String key = last ? keys[o] : keys[random.nextInt(keys.length)];
        if (!last && random.nextBoolean()) {
          final long v = next++;
          own.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
          ops.add(Op.append(key, v));
        } else {
          final List<Long> seen = new ArrayList<>(snapshot.getOrDefault(key, List.of()));
          seen.addAll(own.getOrDefault(key, List.of()));
          ops.add(Op.readList(key, corrupt(seen, random)));
        }
      }
      final boolean aborted = !last && random.nextInt(8) == 0;
      final boolean unknown = !aborted && !last && random.nextInt(10) == 0;
      final boolean applied = unknown ? random.nextBoolean() : !aborted || random.nextInt(3) == 0;
      final Map<String, List<Long>> after = new HashMap<>(states.get(states.size() - 1));
      if (applied) {
        own.forEach((k, vs) -> {
          final List<Long> list = new ArrayList<>(after.getOrDefault(k, List.of()));
          list.addAll(vs);
          after.put(k, list);
        });
      }
      states.add(after);
      final long start = snap == 0 ? 1 : 10L * (snap - 1) + 6;
      final long end = Math.max(10L * i + 5, start);
      final String session = "s" + random.nextInt(4);
      final long seq = seqs.merge(session, 1L, Long::sum);
      txns.add(new Transaction("T" + (i + 1), session, seq,
          aborted ? TxnStatus.ABORTED : unknown ? TxnStatus.UNKNOWN : TxnStatus.COMMITTED, start,
          unknown ? Transaction.NO_TIME : end, ops, null, null, i + 1));
    }
    return new History(txns);
  }

  private static List<Long> corrupt(final List<Long> list, final Random random) {
    if (list.isEmpty() || random.nextInt(15) != 0) {
      return list;
    }
    final List<Long> c = new ArrayList<>(list);
    switch (random.nextInt(3)) {
      case 0 -> c.remove(random.nextInt(c.size()));
      case 1 -> c.add(c.get(0));
      default -> Collections.reverse(c);
    }
    return c;
  }
}
