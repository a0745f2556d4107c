package io.isowatch.core.solve;

import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The generalized polygraph of a history whose version orders are not all determined (PolySI §4,
 * Cobra, Viper): the edges that hold in every version order, and one choice per pair of
 * <em>chains</em> of a key.
 *
 * <p>A chain is a blind write (or a write that follows the initial version) and the writers that
 * read-modify-write it one after the other: a writer that read the version it replaces is placed
 * right after that version in every order without a cycle, so only the order of whole chains is
 * open. The chain that starts at the initial version comes first in every order. Choosing chain C
 * before D adds WW from C's last writer to D's first and RW from every reader of C's last version
 * to D's first; those edges imply (by paths) every edge the full version order would add, for SER
 * and for SI alike.
 *
 * <p>Transactions counted, reads and real time follow the semantics of the brute-force oracle
 * (committed transactions, plus indeterminate ones a counted one read, to a fixpoint; the first
 * read of a key before the transaction writes it reads the last write of its writer). Real time is
 * encoded through one extra node per distinct end time, so it takes O(n) edges, not O(n²).
 */
final class VersionOrderProblem {
  final List<Transaction> txns;
  /** Real nodes are 0..txns.size()-1; time nodes follow. */
  int nodes;
  final List<String> keys = new ArrayList<>();
  final EdgeList known = new EdgeList();
  /** Whether every counted transaction's place in real time is known (SSER can be decided). */
  boolean timesComplete = true;
  final long[] priority;

  // Chains: their key, first and last writer, the last writer's value and that version's readers.
  final IntList chainKey = new IntList(16);
  final IntList chainFirst = new IntList(16);
  final IntList chainLast = new IntList(16);
  final List<Long> chainValue = new ArrayList<>();
  final List<int[]> chainReaders = new ArrayList<>();
  /** (writer, reader, key index) of the WR edges of reads whose writer this case chose among several. */
  final java.util.Set<List<Integer>> chosenReads = new java.util.HashSet<>();
  /** Per key, its chains other than the initial version's, in a fixed order. */
  final List<int[]> openChains = new ArrayList<>();
  /** Per key, the offset of its first pair variable (variables are numbered from 1). */
  long[] firstVar;
  long variables;

  private VersionOrderProblem(final List<Transaction> txns) {
    this.txns = txns;
    this.priority = new long[txns.size()];
  }

  /** Why the search does not apply to a history, or the problem. */
  record Built(VersionOrderProblem problem, String notApplicable) {}

  static Built build(final History history, final Long initial, final long skew, final boolean realTime) {
    final List<Transaction> counted = counted(history, initial);
    return build(counted, writersOf(counted), initial, skew, realTime, Map.of());
  }

  /**
   * The problem of one case: {@code chosen} gives the writer (a node, -1 for the initial version)
   * of each read whose value several counted transactions wrote ({@link #choiceReads}); a read
   * with one candidate writer needs no entry.
   */
  static Built build(final List<Transaction> counted, final Map<KeyValue, IntList> writers, final Long initial,
      final long skew, final boolean realTime, final Map<ReaderKey, Integer> chosen) {
    final VersionOrderProblem p = new VersionOrderProblem(counted);
    final String why = p.fill(initial, skew, realTime, chosen, writers);
    // A lost update is returned with the (partly built) problem, which names its key.
    return why == null || p.lostUpdate != null ? new Built(p, why) : new Built(null, why);
  }

  /** {@link #fill}'s answer when two transactions read the same version of a key and both overwrote it. */
  static final String LOST_UPDATE = "two transactions read the same version of a key and both overwrote it";

  /**
   * When the build stopped at a lost update: {key index, the version's writer (-1: initial), the
   * two transactions that read it and overwrote it}; null otherwise. No order of the two is
   * acyclic, for SER and SI alike: whichever writes first, the other read the version it
   * overwrote.
   */
  int[] lostUpdate;
  /**
   * Why the chains of some key are incomplete: its writers read each other's versions in a cycle,
   * a cycle of certain WR edges; null otherwise.
   */
  String readCycle;
  /** For a lost update: the value of the version both read, and what each wrote (by node). */
  Long lostValue;

  /** A read of a key by a node (an index in the counted transactions). */
  record ReaderKey(int reader, String key) {}

  /**
   * A read with more than one candidate writer: {@code candidates} are nodes whose last write of
   * the key is the value read (the reader excluded), and -1 when the value is the initial one.
   */
  record ChoiceRead(int reader, String key, Long value, int[] candidates) {}

  /** The reads of {@code counted} whose value more than one transaction (or the initial version) may have given. */
  static List<ChoiceRead> choiceReads(final List<Transaction> counted, final Map<KeyValue, IntList> writers,
      final Long initial) {
    final List<ChoiceRead> out = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      for (final Map.Entry<String, Long> r : firstExternalReads(counted.get(i)).entrySet()) {
        final int[] c = candidates(writers, i, r.getKey(), r.getValue(), initial);
        if (c.length > 1) {
          out.add(new ChoiceRead(i, r.getKey(), r.getValue(), c));
        }
      }
    }
    return out;
  }

  /** (key, value) to the nodes whose last write of the key is the value, in node order. */
  static Map<KeyValue, IntList> writersOf(final List<Transaction> counted) {
    final Map<KeyValue, IntList> writers = new HashMap<>();
    for (int i = 0; i < counted.size(); i++) {
      for (final Map.Entry<String, Long> w : lastWrites(counted.get(i)).entrySet()) {
        writers.computeIfAbsent(new KeyValue(w.getKey(), w.getValue()), x -> new IntList(1)).add(i);
      }
    }
    return writers;
  }

  /** The oracle's candidate writers of node i's read of key=value: -1 for the initial version, then the other writers. */
  private static int[] candidates(final Map<KeyValue, IntList> writers, final int i, final String key,
      final Long value, final Long initial) {
    final IntList out = new IntList(2);
    if (Objects.equals(value, initial)) {
      out.add(-1);
    }
    final IntList ws = value == null ? null : writers.get(new KeyValue(key, value));
    for (int j = 0; ws != null && j < ws.size(); j++) {
      if (ws.get(j) != i) {
        out.add(ws.get(j));
      }
    }
    return out.toArray();
  }

  int realNodes() {
    return txns.size();
  }

  /**
   * The literal of "chain at position a before chain at position b" of one key (positions in
   * openChains). A variable is true when the later-listed chain goes first, so the solver's
   * default phase (false) starts from the listed order, which {@link #listInOrder} makes the
   * greedy order.
   */
  int literal(final int keyIndex, final int a, final int b) {
    final int h = openChains.get(keyIndex).length;
    final int lo = Math.min(a, b);
    final int hi = Math.max(a, b);
    // Row-major index of (lo, hi) in the strict upper triangle of an h x h matrix.
    final long idx = (long) lo * (2L * h - lo - 1) / 2 + (hi - lo - 1);
    // Past int range (far beyond what the solver takes on) a literal only marks an edge as a choice.
    final int v = (int) Math.min(Integer.MAX_VALUE, firstVar[keyIndex] + idx + 1);
    return a < b ? -v : v;
  }

  /** Re-lists each key's open chains by their first writer's position in {@code position}. */
  void listInOrder(final int[] position) {
    for (int k = 0; k < openChains.size(); k++) {
      final int[] chains = openChains.get(k);
      final Integer[] boxed = new Integer[chains.length];
      for (int j = 0; j < chains.length; j++) {
        boxed[j] = chains[j];
      }
      Arrays.sort(boxed, (a, b) -> Integer.compare(position[chainFirst.get(a)], position[chainFirst.get(b)]));
      for (int j = 0; j < chains.length; j++) {
        chains[j] = boxed[j];
      }
    }
  }

  /** Adds the edges of "chain c before chain d" with the given literal. */
  void addOrderEdges(final EdgeList out, final int c, final int d, final int lit) {
    final int k = chainKey.get(c);
    final int last = chainLast.get(c);
    final int first = chainFirst.get(d);
    final long v = value(chainValue.get(c));
    if (last >= 0) {
      out.add(last, first, EdgeKind.WW, k, v, lit);
    }
    for (final int r : chainReaders.get(c)) {
      if (r != first) {
        out.add(r, first, EdgeKind.RW, k, v, lit);
      }
    }
  }

  static long value(final Long v) {
    return v == null ? EdgeList.NO_VALUE : v;
  }

  // ---- building ----

  private String fill(final Long initial, final long skew, final boolean realTime, final Map<ReaderKey, Integer> chosen,
      final Map<KeyValue, IntList> writerOf) {
    final int n = txns.size();
    nodes = n;
    final Map<String, Integer> keyIds = new HashMap<>();
    final List<Map<String, Long>> lastWrites = new ArrayList<>(n);
    final List<Map<String, Long>> reads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      lastWrites.add(lastWrites(t));
      reads.add(firstExternalReads(t));
      for (final Map.Entry<String, Long> w : lastWrites.get(i).entrySet()) {
        keyIds.computeIfAbsent(w.getKey(), key -> {
          keys.add(key);
          return keys.size() - 1;
        });
      }
      priority[i] = t.end() != Transaction.NO_TIME ? t.end() : t.start() != Transaction.NO_TIME ? t.start() : Long.MAX_VALUE;
    }
    // Readers of each version: key index, writer (-1 for the initial version).
    final Map<Long, IntList> readersOf = new HashMap<>();
    final int[][] readFrom = new int[n][];
    for (int i = 0; i < n; i++) {
      final IntList from = new IntList(4);
      for (final Map.Entry<String, Long> r : reads.get(i).entrySet()) {
        final int[] candidates = candidates(writerOf, i, r.getKey(), r.getValue(), initial);
        final Integer pick = candidates.length > 1 ? chosen.get(new ReaderKey(i, r.getKey())) : null;
        final int writer;
        if (candidates.length == 1) {
          writer = candidates[0];
        } else if (pick != null) {
          writer = pick;
        } else if (candidates.length > 1) {
          return "values written to " + r.getKey() + " are not unique, so its reads cannot be attributed";
        } else {
          return "transaction " + txns.get(i).id() + " read " + r.getKey() + "=" + r.getValue()
              + ", which no other counted transaction wrote last";
        }
        final Integer k = keyIds.get(r.getKey());
        if (k == null) {
          continue; // a key nobody writes: its only version is the initial one, no edge either way
        }
        readersOf.computeIfAbsent(pack(k, writer), x -> new IntList(2)).add(i);
        from.add(k);
        from.add(writer);
        if (writer >= 0) {
          known.add(writer, i, EdgeKind.WR, k, value(r.getValue()), 0);
          if (candidates.length > 1) {
            chosenReads.add(List.of(writer, i, k));
          }
        }
      }
      readFrom[i] = from.toArray();
    }
    // Predecessor of each writer on each key: the version it read before writing, if any.
    final Map<Long, Integer> successor = new HashMap<>();
    final List<IntList> writersOfKey = new ArrayList<>();
    for (int k = 0; k < keys.size(); k++) {
      writersOfKey.add(new IntList(4));
    }
    final Map<Long, Boolean> hasPred = new HashMap<>();
    for (int i = 0; i < n; i++) {
      for (final String key : lastWrites.get(i).keySet()) {
        writersOfKey.get(keyIds.get(key)).add(i);
      }
      final int[] from = readFrom[i];
      for (int j = 0; j < from.length; j += 2) {
        final int k = from[j];
        if (lastWrites.get(i).containsKey(keys.get(k))) {
          final Integer other = successor.putIfAbsent(pack(k, from[j + 1]), i);
          if (other != null) {
            lostUpdate = new int[] {k, from[j + 1], other, i};
            lostValue = from[j + 1] < 0 ? initial : lastWrites.get(from[j + 1]).get(keys.get(k));
            return LOST_UPDATE;
          }
          hasPred.put(pack(k, i), Boolean.TRUE);
        }
      }
    }
    firstVar = new long[keys.size()];
    for (int k = 0; k < keys.size(); k++) {
      final IntList heads = new IntList(4);
      heads.add(-1);
      final IntList ws = writersOfKey.get(k);
      for (int j = 0; j < ws.size(); j++) {
        if (!hasPred.containsKey(pack(k, ws.get(j)))) {
          heads.add(ws.get(j));
        }
      }
      int visited = 0;
      final IntList open = new IntList(heads.size());
      int initialChain = -1;
      for (int h = 0; h < heads.size(); h++) {
        int cur = heads.get(h);
        final int first = cur;
        Integer next = successor.get(pack(k, cur));
        while (next != null) {
          edgesOfStep(k, cur, next, lastWrites, readersOf, initial);
          cur = next;
          visited++;
          next = successor.get(pack(k, cur));
        }
        if (first >= 0) {
          visited++;
        }
        final int c = chainKey.size();
        chainKey.add(k);
        chainFirst.add(first);
        chainLast.add(cur);
        chainValue.add(cur < 0 ? initial : lastWrites.get(cur).get(keys.get(k)));
        final IntList rs = readersOf.get(pack(k, cur));
        chainReaders.add(rs == null ? new int[0] : rs.toArray());
        if (first < 0) {
          initialChain = c;
        } else {
          open.add(c);
        }
      }
      if (visited != ws.size()) {
        // Their WR edges, already certain, close a cycle that the search finds first.
        readCycle = "the writers of " + keys.get(k) + " read each other's versions in a cycle";
      }
      final int[] chains = open.toArray();
      openChains.add(chains);
      for (final int d : chains) {
        addOrderEdges(known, initialChain, d, 0);
      }
      firstVar[k] = variables;
      variables += (long) chains.length * (chains.length - 1) / 2;
    }
    sessionOrder();
    if (realTime) {
      realTime(skew);
    }
    return null;
  }

  private void edgesOfStep(final int k, final int prev, final int next, final List<Map<String, Long>> lastWrites,
      final Map<Long, IntList> readersOf, final Long initial) {
    final Long v = prev < 0 ? initial : lastWrites.get(prev).get(keys.get(k));
    if (prev >= 0) {
      known.add(prev, next, EdgeKind.WW, k, value(v), 0);
    }
    final IntList rs = readersOf.get(pack(k, prev));
    if (rs != null) {
      for (int j = 0; j < rs.size(); j++) {
        if (rs.get(j) != next) {
          known.add(rs.get(j), next, EdgeKind.RW, k, value(v), 0);
        }
      }
    }
  }

  private void sessionOrder() {
    final Map<String, IntList> bySession = new LinkedHashMap<>();
    for (int i = 0; i < txns.size(); i++) {
      bySession.computeIfAbsent(txns.get(i).session(), s -> new IntList(8)).add(i);
    }
    for (final IntList members : bySession.values()) {
      final Integer[] ordered = new Integer[members.size()];
      boolean allSeq = true;
      for (int j = 0; j < ordered.length; j++) {
        ordered[j] = members.get(j);
        allSeq &= txns.get(ordered[j]).hasSeq();
      }
      if (allSeq) {
        Arrays.sort(ordered, (a, b) -> Long.compare(txns.get(a).seq(), txns.get(b).seq()));
      }
      for (int j = 1; j < ordered.length; j++) {
        known.add(ordered[j - 1], ordered[j], EdgeKind.SO, -1, EdgeList.NO_VALUE, 0);
      }
    }
  }

  /**
   * RT through time nodes: a → E(a.end), E(t) → E(next t), E(t) → b for the latest end t with t +
   * skew &lt; b.start. A path a ⇝ b exists exactly when a ended before b started.
   */
  private void realTime(final long skew) {
    final int n = txns.size();
    final IntList ended = new IntList(n);
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      if (!(hasStart(t) && (hasEnd(t) || t.status() == TxnStatus.UNKNOWN))) {
        timesComplete = false;
      }
      if (hasEnd(t)) {
        ended.add(i);
      }
    }
    final long[] ends = new long[ended.size()];
    for (int j = 0; j < ends.length; j++) {
      ends[j] = txns.get(ended.get(j)).end();
    }
    final long[] distinct = Arrays.stream(ends).sorted().distinct().toArray();
    nodes = n + distinct.length;
    for (int j = 0; j < ends.length; j++) {
      known.add(ended.get(j), n + Arrays.binarySearch(distinct, ends[j]), EdgeKind.RT, -1, EdgeList.NO_VALUE, 0);
    }
    for (int j = 1; j < distinct.length; j++) {
      known.add(n + j - 1, n + j, EdgeKind.RT, -1, EdgeList.NO_VALUE, 0);
    }
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      if (!hasStart(t)) {
        continue;
      }
      // The latest end strictly before start - skew.
      int lo = 0;
      int hi = distinct.length;
      while (lo < hi) {
        final int mid = (lo + hi) >>> 1;
        if (distinct[mid] + skew < t.start()) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo > 0) {
        known.add(n + lo - 1, i, EdgeKind.RT, -1, EdgeList.NO_VALUE, 0);
      }
    }
  }

  private static boolean hasStart(final Transaction t) {
    return t.start() != Transaction.NO_TIME && (t.end() == Transaction.NO_TIME || t.end() >= t.start());
  }

  private static boolean hasEnd(final Transaction t) {
    return t.end() != Transaction.NO_TIME && (t.start() == Transaction.NO_TIME || t.end() >= t.start());
  }

  private static long pack(final int key, final int writer) {
    return ((long) key << 32) | (writer + 1L);
  }

  record KeyValue(String key, Long value) {}

  // ---- which transactions count (the oracle's semantics) ----

  static List<Transaction> counted(final History history, final Long initial) {
    final List<Transaction> all = history.transactions();
    final Map<KeyValue, IntList> unknownWriters = new HashMap<>();
    final boolean[] counted = new boolean[all.size()];
    final ArrayDeque<Integer> work = new ArrayDeque<>();
    for (int i = 0; i < all.size(); i++) {
      final Transaction t = all.get(i);
      if (t.status() == TxnStatus.COMMITTED) {
        counted[i] = true;
        work.add(i);
      } else if (t.status() == TxnStatus.UNKNOWN) {
        for (final Map.Entry<String, Long> w : lastWrites(t).entrySet()) {
          unknownWriters.computeIfAbsent(new KeyValue(w.getKey(), w.getValue()), x -> new IntList(1)).add(i);
        }
      }
    }
    while (!work.isEmpty()) {
      final int r = work.poll();
      for (final Map.Entry<String, Long> read : firstExternalReads(all.get(r)).entrySet()) {
        final IntList us = unknownWriters.get(new KeyValue(read.getKey(), read.getValue()));
        for (int j = 0; us != null && j < us.size(); j++) {
          final int u = us.get(j);
          if (u != r && !counted[u]) {
            counted[u] = true;
            work.add(u);
          }
        }
      }
    }
    // Canonical node order, so that a history gives the same search (and the same counterexample)
    // whatever the order of its sessions in the source or of arrival: sessions by name, each in its
    // session order (by seq when all of its transactions have one, else as listed); seq is then
    // cleared, as the list order is the session order.
    final Map<String, List<Transaction>> bySession = new java.util.TreeMap<>();
    for (int i = 0; i < all.size(); i++) {
      if (counted[i]) {
        bySession.computeIfAbsent(all.get(i).session(), x -> new ArrayList<>()).add(all.get(i));
      }
    }
    final List<Transaction> out = new ArrayList<>();
    for (final List<Transaction> session : bySession.values()) {
      if (session.stream().allMatch(Transaction::hasSeq)) {
        session.sort(java.util.Comparator.comparingLong(Transaction::seq));
      }
      for (final Transaction t : session) {
        out.add(t.withSeq(Transaction.NO_SEQ));
      }
    }
    return out;
  }

  static Map<String, Long> lastWrites(final Transaction t) {
    final Map<String, Long> out = new LinkedHashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        out.put(op.key(), op.value());
      }
    }
    return out;
  }

  static Map<String, Long> firstExternalReads(final Transaction t) {
    final Map<String, Long> out = new LinkedHashMap<>();
    final java.util.Set<String> written = new java.util.HashSet<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        written.add(op.key());
      } else if (!written.contains(op.key()) && !out.containsKey(op.key())) {
        out.put(op.key(), op.value());
      }
    }
    return out;
  }
}
