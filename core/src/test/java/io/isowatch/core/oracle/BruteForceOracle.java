package io.isowatch.core.oracle;

import static io.isowatch.core.oracle.OracleRelations.T0;
import static io.isowatch.core.oracle.OracleRelations.bit;
import static io.isowatch.core.oracle.OracleRelations.increment;
import static io.isowatch.core.oracle.OracleRelations.isAcyclic;
import static io.isowatch.core.oracle.OracleRelations.lastWrites;
import static io.isowatch.core.oracle.OracleRelations.permutationsAfterT0;
import static io.isowatch.core.oracle.OracleRelations.sessionOrder;
import static io.isowatch.core.oracle.OracleRelations.total;
import static io.isowatch.core.oracle.OracleRelations.union;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A deliberately naive decision procedure for SSER, SER and SI, written straight from the
 * definitions (MTC Definitions 2-6) and independent of the engine: it enumerates every version
 * order of every key (and every writer of a value read when writes are not unique) and checks
 * each candidate dependency graph for cycles with a transitive closure.
 *
 * <p>Semantics, implemented literally:
 *
 * <ul>
 *   <li>An implicit T0 writes the initial value to every key and precedes every transaction in
 *       session order, real-time order and every version order.
 *   <li>Committed transactions count; aborted ones never do; an unknown one counts iff a counted
 *       other transaction externally reads a value that is the unknown one's last write of that
 *       key (to a fixpoint). Transactions that do not count are ignored entirely.
 *   <li>Int: a read after the transaction's own write of the key returns the latest such write;
 *       repeated reads before any write of the key agree. A violation falsifies every level.
 *   <li>An external read (before the transaction's first write of the key) reads from T0 if it
 *       returns the initial value, or from a counted other transaction whose last write of the key
 *       is that value. No such writer falsifies every level; several are a choice to enumerate.
 *   <li>SER: some choice has SO ∪ WR ∪ WW ∪ RW acyclic; SSER: the same with RT added (null when
 *       a counted transaction lacks times, unless SER already fails); SI: some choice has (SO ∪
 *       WR ∪ WW) ; RW? acyclic.
 *   <li>RT: T1.end + skew < T2.start where T1 has an end and T2 a start. An indeterminate
 *       transaction without an end is not missing times: it never finished, so precedes nothing.
 * </ul>
 *
 * <p>Exponential by design: meant for histories of a handful of transactions.
 */
public final class BruteForceOracle {
  /** Above this many candidate graphs the oracle refuses rather than run for minutes. */
  public static final long MAX_CHOICES = 1_000_000L;

  /** Node 0 of every graph is the implicit initial transaction. */

  private BruteForceOracle() {}

  public static OracleVerdict judge(final History history, final CheckOptions options) {
    final List<Transaction> counted = countedTransactions(history);
    final int nodes = counted.size() + 1;
    if (nodes > Long.SIZE) {
      throw new IllegalArgumentException("too many transactions for the oracle: " + counted.size());
    }
    for (final Transaction t : counted) {
      if (!internallyConsistent(t)) {
        return OracleVerdict.allFalse(counted.size());
      }
    }
    final List<ExternalRead> reads = externalReads(counted, options.initialValue());
    if (reads.stream().anyMatch(r -> r.candidates().length == 0)) {
      return OracleVerdict.allFalse(counted.size());
    }
    final Map<String, List<Integer>> writers = writersByKey(counted);
    long choices = 1;
    for (final List<Integer> ws : writers.values()) {
      for (int i = 2; i <= ws.size(); i++) {
        choices = Math.multiplyExact(choices, i);
      }
    }
    for (final ExternalRead r : reads) {
      choices = Math.multiplyExact(choices, r.candidates().length);
    }
    if (choices > MAX_CHOICES) {
      throw new IllegalArgumentException("too many choices for the oracle: " + choices);
    }
    final Map<String, List<int[]>> versionOrders = new LinkedHashMap<>();
    writers.forEach((key, ws) -> versionOrders.put(key, permutationsAfterT0(ws)));
    return enumerate(counted, reads, versionOrders, options.rtSkewMicros());
  }

  /**
   * The verdicts of one version order, as {@link #judge} gives them for all: each key's writers in
   * the order they appear in {@code order} (T0 first; a counted writer missing from it is an
   * error), every choice of writer of a read still enumerated. Null when a counted transaction is
   * internally inconsistent (no version order is involved then). Tests of a checker that keeps one
   * version order (the online witness of the appended order) compare its acyclicity with this.
   */
  public static OracleVerdict judgeInOrder(final History history, final CheckOptions options,
      final List<Transaction> order) {
    final List<Transaction> counted = countedTransactions(history);
    if (counted.size() + 1 > Long.SIZE) {
      throw new IllegalArgumentException("too many transactions for the oracle: " + counted.size());
    }
    if (!counted.stream().allMatch(BruteForceOracle::internallyConsistent)) {
      return null;
    }
    final List<ExternalRead> reads = externalReads(counted, options.initialValue());
    if (reads.stream().anyMatch(r -> r.candidates().length == 0)) {
      return OracleVerdict.allFalse(counted.size());
    }
    final Map<String, Integer> position = new LinkedHashMap<>();
    for (int i = 0; i < order.size(); i++) {
      position.putIfAbsent(order.get(i).id(), i);
    }
    final Map<String, List<int[]>> versionOrders = new LinkedHashMap<>();
    writersByKey(counted).forEach((key, ws) -> {
      final List<Integer> sorted = new ArrayList<>(ws);
      sorted.sort(java.util.Comparator.comparing(w -> {
        final Integer at = position.get(counted.get(w - 1).id());
        if (at == null) {
          throw new IllegalArgumentException("writer " + counted.get(w - 1).id() + " is not in the order");
        }
        return at;
      }));
      final int[] chosen = new int[sorted.size() + 1];
      chosen[0] = T0;
      for (int i = 0; i < sorted.size(); i++) {
        chosen[i + 1] = sorted.get(i);
      }
      versionOrders.put(key, List.<int[]>of(chosen));
    });
    return enumerate(counted, reads, versionOrders, options.rtSkewMicros());
  }

  /**
   * The levels whose graph is cyclic already when built only from the edges common to every
   * candidate (every version order, every choice of writer): SO, RT, the WR of reads with a
   * single possible writer and the RW of reads of T0 to every writer of the key. A checker that
   * uses every certain edge must report these levels VIOLATED. Every level when some transaction
   * is internally inconsistent or some read has no possible writer.
   */
  public static Set<Level> cyclicInEveryCandidate(final History history, final CheckOptions options) {
    return cyclicInEveryCandidate(history, options, true);
  }

  /**
   * As {@link #cyclicInEveryCandidate(History, CheckOptions)}; without {@code readsOfInitial}
   * the common RW edges (which are exactly those from reads of T0) are left out, to tell which
   * certain cycles need them.
   */
  public static Set<Level> cyclicInEveryCandidate(
      final History history, final CheckOptions options, final boolean readsOfInitial) {
    final List<Transaction> counted = countedTransactions(history);
    final int nodes = counted.size() + 1;
    if (nodes > Long.SIZE) {
      throw new IllegalArgumentException("too many transactions for the oracle: " + counted.size());
    }
    final Set<Level> all = java.util.EnumSet.allOf(Level.class);
    if (!counted.stream().allMatch(BruteForceOracle::internallyConsistent)) {
      return all;
    }
    final List<ExternalRead> reads = externalReads(counted, options.initialValue());
    if (reads.stream().anyMatch(r -> r.candidates().length == 0)) {
      return all;
    }
    final Map<String, List<int[]>> versionOrders = new LinkedHashMap<>();
    writersByKey(counted).forEach((key, ws) -> versionOrders.put(key, permutationsAfterT0(ws)));
    final List<String> keys = new ArrayList<>(versionOrders.keySet());
    final int[] radix = radix(keys, versionOrders, reads);
    final long total = total(radix);
    if (total > MAX_CHOICES) {
      throw new IllegalArgumentException("too many choices for the oracle: " + total);
    }
    final long[] wr = full(nodes);
    final long[] ww = full(nodes);
    final long[] rw = full(nodes);
    final int[] digit = new int[radix.length];
    for (long c = 0; c < total; c++, increment(digit, radix)) {
      final Graph g = graph(nodes, keys, versionOrders, reads, digit);
      for (int i = 0; i < nodes; i++) {
        wr[i] &= g.wr()[i];
        ww[i] &= g.ww()[i];
        rw[i] &= g.rw()[i];
      }
    }
    if (!readsOfInitial) {
      java.util.Arrays.fill(rw, 0L);
    }
    final long[] so = sessionOrder(counted);
    final long[] ser = union(so, wr, ww, rw);
    final Set<Level> cyclic = java.util.EnumSet.noneOf(Level.class);
    if (!isAcyclic(siRelation(union(so, wr, ww), rw))) {
      cyclic.add(Level.SI);
    }
    if (!isAcyclic(ser)) {
      cyclic.add(Level.SER);
    }
    if (!isAcyclic(union(ser, realTimeOrder(counted, options.rtSkewMicros())))) {
      cyclic.add(Level.SSER);
    }
    return cyclic;
  }

  private static long[] full(final int nodes) {
    final long[] out = new long[nodes];
    java.util.Arrays.fill(out, -1L);
    return out;
  }

  // ---- which transactions count ----

  /** Committed transactions plus unknown ones whose last write a counted one read first, to a fixpoint. */
  static List<Transaction> countedTransactions(final History history) {
    return OracleRelations.countedTransactions(history.transactions(), BruteForceOracle::isReadByCounted);
  }

  private static boolean isReadByCounted(final Transaction u, final Set<Transaction> counted) {
    final Map<String, Long> written = lastWrites(u);
    for (final Transaction r : counted) {
      if (r == u) {
        continue;
      }
      for (final Map.Entry<String, Long> read : firstExternalReads(r).entrySet()) {
        if (written.containsKey(read.getKey())
            && Objects.equals(written.get(read.getKey()), read.getValue())) {
          return true;
        }
      }
    }
    return false;
  }

  // ---- per-transaction facts ----

  /** Int: reads after an own write see the latest own write; earlier repeated reads agree. */
  static boolean internallyConsistent(final Transaction t) {
    final Map<String, Long> lastWritten = new LinkedHashMap<>();
    final Map<String, Long> firstRead = new LinkedHashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        lastWritten.put(op.key(), op.value());
      } else if (lastWritten.containsKey(op.key())) {
        if (!Objects.equals(op.value(), lastWritten.get(op.key()))) {
          return false;
        }
      } else if (firstRead.containsKey(op.key())) {
        if (!Objects.equals(op.value(), firstRead.get(op.key()))) {
          return false;
        }
      } else {
        firstRead.put(op.key(), op.value());
      }
    }
    return true;
  }

  /** The value of the first read of each key that happens before the first write of that key. */
  static Map<String, Long> firstExternalReads(final Transaction t) {
    final Set<String> writtenSoFar = new LinkedHashSet<>();
    final Map<String, Long> reads = new LinkedHashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        writtenSoFar.add(op.key());
      } else if (!writtenSoFar.contains(op.key()) && !reads.containsKey(op.key())) {
        reads.put(op.key(), op.value());
      }
    }
    return reads;
  }

  // ---- the choices ----

  /** An external read of {@code key} by node {@code reader} and the nodes it may read from. */
  private record ExternalRead(int reader, String key, int[] candidates) {}

  private static List<ExternalRead> externalReads(final List<Transaction> counted, final Long initial) {
    final List<ExternalRead> reads = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      for (final Map.Entry<String, Long> read : firstExternalReads(counted.get(i)).entrySet()) {
        final List<Integer> candidates = new ArrayList<>();
        if (Objects.equals(read.getValue(), initial)) {
          candidates.add(T0);
        }
        for (int j = 0; j < counted.size(); j++) {
          final Map<String, Long> writes = lastWrites(counted.get(j));
          if (j != i
              && writes.containsKey(read.getKey())
              && Objects.equals(writes.get(read.getKey()), read.getValue())) {
            candidates.add(j + 1);
          }
        }
        reads.add(new ExternalRead(
            i + 1, read.getKey(), candidates.stream().mapToInt(Integer::intValue).toArray()));
      }
    }
    return reads;
  }

  /** The nodes that write each key. */
  private static Map<String, List<Integer>> writersByKey(final List<Transaction> counted) {
    final Map<String, List<Integer>> writers = new LinkedHashMap<>();
    for (int i = 0; i < counted.size(); i++) {
      for (final String key : lastWrites(counted.get(i)).keySet()) {
        writers.computeIfAbsent(key, k -> new ArrayList<>()).add(i + 1);
      }
    }
    return writers;
  }

  // ---- the search ----

  private static OracleVerdict enumerate(
      final List<Transaction> counted,
      final List<ExternalRead> reads,
      final Map<String, List<int[]>> versionOrders,
      final long skew) {
    final int nodes = counted.size() + 1;
    final long[] so = sessionOrder(counted);
    final long[] rt = realTimeOrder(counted, skew);
    final boolean allTimed = counted.stream().allMatch(BruteForceOracle::realTimeKnown);

    final List<String> keys = new ArrayList<>(versionOrders.keySet());
    final int[] radix = radix(keys, versionOrders, reads);
    final long total = total(radix);
    final int dims = radix.length;

    boolean sserOk = false;
    boolean serOk = false;
    boolean siOk = false;
    long tried = 0;
    final int[] digit = new int[dims];
    for (long c = 0; c < total && !sserOk; c++, increment(digit, radix)) {
      tried++;
      final Graph g = graph(nodes, keys, versionOrders, reads, digit);
      final long[] serRel = union(so, g.wr(), g.ww(), g.rw());
      // SSER's relation contains SER's, which contains (a path for) every SI edge: acyclicity
      // of a stronger relation settles the weaker ones for the same choice.
      if (isAcyclic(union(serRel, rt))) {
        sserOk = true;
        serOk = true;
        siOk = true;
      } else if (!serOk && isAcyclic(serRel)) {
        serOk = true;
        siOk = true;
      } else if (!siOk && isAcyclic(siRelation(union(so, g.wr(), g.ww()), g.rw()))) {
        siOk = true;
      }
    }
    final Boolean sser = allTimed ? Boolean.valueOf(sserOk) : (serOk ? null : Boolean.FALSE);
    return new OracleVerdict(sser, serOk, siOk, sserOk, counted.size(), tried);
  }

  /** One digit per key (its version orders) and per external read (its candidate writers). */
  private static int[] radix(
      final List<String> keys, final Map<String, List<int[]>> versionOrders, final List<ExternalRead> reads) {
    final int[] radix = new int[keys.size() + reads.size()];
    for (int d = 0; d < radix.length; d++) {
      radix[d] = d < keys.size()
          ? versionOrders.get(keys.get(d)).size()
          : reads.get(d - keys.size()).candidates().length;
    }
    return radix;
  }

  /** WR, WW and RW for one choice; row {@code a} has bit {@code b} set when a → b. */
  private record Graph(long[] wr, long[] ww, long[] rw) {}

  private static Graph graph(
      final int nodes,
      final List<String> keys,
      final Map<String, List<int[]>> versionOrders,
      final List<ExternalRead> reads,
      final int[] digit) {
    final long[] wr = new long[nodes];
    final long[] ww = new long[nodes];
    final long[] rw = new long[nodes];
    final Map<String, int[]> chosenOrder = new LinkedHashMap<>();
    for (int k = 0; k < keys.size(); k++) {
      final int[] order = versionOrders.get(keys.get(k)).get(digit[k]);
      chosenOrder.put(keys.get(k), order);
      for (int a = 0; a < order.length; a++) {
        for (int b = a + 1; b < order.length; b++) {
          ww[order[a]] |= bit(order[b]);
        }
      }
    }
    for (int r = 0; r < reads.size(); r++) {
      final ExternalRead read = reads.get(r);
      final int writer = read.candidates()[digit[keys.size() + r]];
      wr[writer] |= bit(read.reader());
      // Nobody but T0 writes a key that has no version order entry.
      final int[] order = chosenOrder.getOrDefault(read.key(), new int[] {T0});
      boolean afterWriter = false;
      for (final int t : order) {
        if (afterWriter && t != read.reader()) {
          rw[read.reader()] |= bit(t);
        }
        afterWriter |= t == writer;
      }
    }
    return new Graph(wr, ww, rw);
  }

  /** (D ; RW?) = D ∪ (D ; RW), composed pair by pair. */
  private static long[] siRelation(final long[] d, final long[] rw) {
    final long[] out = d.clone();
    for (int a = 0; a < d.length; a++) {
      for (int b = 0; b < d.length; b++) {
        if ((d[a] & bit(b)) != 0) {
          out[a] |= rw[b];
        }
      }
    }
    return out;
  }

  /**
   * Whether the transaction's place in real time is fully known: a start and an end, except that
   * an indeterminate transaction may lack its end (its client never saw it finish: it precedes
   * nothing, like a pending operation in linearizability). A transaction that ends before it
   * starts has no usable times.
   */
  static boolean realTimeKnown(final Transaction t) {
    return hasStart(t) && (hasEnd(t) || t.status() == TxnStatus.UNKNOWN);
  }

  private static boolean hasStart(final Transaction t) {
    return t.start() != Transaction.NO_TIME && (t.end() == Transaction.NO_TIME || t.end() >= t.start());
  }

  private static boolean hasEnd(final Transaction t) {
    return t.end() != Transaction.NO_TIME && (t.start() == Transaction.NO_TIME || t.end() >= t.start());
  }

  /** RT: a ended before b started (beyond the skew), where both times are known; T0 precedes all. */
  private static long[] realTimeOrder(final List<Transaction> counted, final long skew) {
    final long[] rt = new long[counted.size() + 1];
    for (int i = 0; i < counted.size(); i++) {
      rt[T0] |= bit(i + 1);
      final Transaction a = counted.get(i);
      for (int j = 0; j < counted.size(); j++) {
        final Transaction b = counted.get(j);
        if (i != j && hasEnd(a) && hasStart(b) && a.end() + skew < b.start()) {
          rt[i + 1] |= bit(j + 1);
        }
      }
    }
    return rt;
  }

}
