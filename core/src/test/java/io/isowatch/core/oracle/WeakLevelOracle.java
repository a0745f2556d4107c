package io.isowatch.core.oracle;

import static io.isowatch.core.oracle.OracleRelations.T0;
import static io.isowatch.core.oracle.OracleRelations.bit;
import static io.isowatch.core.oracle.OracleRelations.closure;
import static io.isowatch.core.oracle.OracleRelations.increment;
import static io.isowatch.core.oracle.OracleRelations.isAcyclic;
import static io.isowatch.core.oracle.OracleRelations.lastWrites;
import static io.isowatch.core.oracle.OracleRelations.permutationsAfterT0;
import static io.isowatch.core.oracle.OracleRelations.sessionOrder;
import static io.isowatch.core.oracle.OracleRelations.total;
import static io.isowatch.core.oracle.OracleRelations.union;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A deliberately naive decision procedure for the weak levels of {@link WeakLevel}, written
 * straight from the definitions and independent of the engine. For a history of a handful of
 * transactions it says, per level, whether the history satisfies it.
 *
 * <p>Use: {@code WeakLevelOracle.decide(history, initialValue)} gives a map from every {@link
 * WeakLevel} to true or false; {@link #judge} adds, for each axiomatic level that holds, a commit
 * order that witnesses it.
 *
 * <p>Conventions, the same as {@link BruteForceOracle} (docs/anomalies.md) where they apply:
 *
 * <ul>
 *   <li>An implicit T0 writes the initial value to every key and precedes every transaction in
 *       session order, in every commit order and in every version order.
 *   <li>Committed transactions count; aborted ones never do; an unknown one counts iff a counted
 *       other transaction reads (by any external read) a value that is the unknown one's last write
 *       of that key, to a fixpoint. Transactions that do not count are ignored entirely, their
 *       reads included. (Biswas and Enea would still constrain the reads of a transaction aborted
 *       by the program; a database-aborted one is not in their histories at all.)
 *   <li>Internal reads (after the transaction's own write of the key) must return the latest own
 *       write: "for every isolation level that we are aware of" (dpor-weak-isolation Section
 *       2.2.1), and Adya's histories have it too. A violation falsifies every level.
 *   <li>Every external read (any read not preceded by an own write of its key, <em>each</em> such
 *       read, not just the first of a key: repeated reads that disagree are a non-repeatable read,
 *       which RC allows) reads from T0 if it returns the initial value, or from a counted other
 *       transaction whose <em>last</em> write of the key is that value (only last writes are
 *       visible: writes(t) in Section 2.2.1). No such writer (thin-air, aborted or intermediate
 *       read: Adya G1a, G1b) falsifies every level: the write-read relation of the paper's
 *       histories is total. Several writers (duplicate values) are a choice, enumerated;
 *       repeated reads of one key returning one value in one transaction share their choice (a
 *       split choice only adds wr, rw and RC premises, so it never satisfies a level the shared
 *       one does not).
 *   <li>Session order: T0 first, then per session by seq when every member has one, else by
 *       source order.
 * </ul>
 *
 * <p>Axiomatic levels: for every choice of writers, every commit order (linear extension of so ∪
 * wr with T0 first) is enumerated depth first and the axioms are checked literally on the complete
 * order ({@link #violated} with every node placed). With pruning on (the default) the same function
 * also rejects a prefix as soon as one axiom instance is certainly broken by every completion; the
 * test {@code WeakLevelOracleTest} checks that pruning never changes an answer.
 *
 * <p>Adya levels: for every choice of writers and every version order of every key (T0's version
 * first, then every permutation of the counted writers: the blind-write case; on read-modify-write
 * histories only one order is cycle free anyway), the DSG is built with ww between every two
 * versions in order, wr from writer to reader and rw from a reader to every writer of a later
 * version (other than itself); the level holds when some choice has no forbidden cycle.
 *
 * <p>Exponential by design: meant for histories of at most about 8 transactions.
 */
public final class WeakLevelOracle {
  /** Above this many (writer choice × version order) candidates the oracle refuses. */
  public static final long MAX_CHOICES = 1_000_000L;

  /** Node 0 is the implicit initial transaction. */

  private WeakLevelOracle() {}

  /**
   * What the oracle decided.
   *
   * @param holds every level, true when the history satisfies it
   * @param witnesses for each axiomatic level that holds, one commit order (transaction ids, T0 left
   *     out) that satisfies its axioms
   * @param counted the transactions counted as committed, in source order
   */
  public record WeakVerdict(
      Map<WeakLevel, Boolean> holds, Map<WeakLevel, List<String>> witnesses, List<String> counted) {
    public boolean holds(final WeakLevel level) {
      return holds.get(level);
    }
  }

  /** Every level with the default initial value 0. */
  public static Map<WeakLevel, Boolean> decide(final History history) {
    return decide(history, 0L);
  }

  /** Every level, with the options' initial value (the only option that matters here). */
  public static Map<WeakLevel, Boolean> decide(final History history, final CheckOptions options) {
    return decide(history, options.initialValue());
  }

  /** Every level; {@code initialValue} null means every key starts absent. */
  public static Map<WeakLevel, Boolean> decide(final History history, final Long initialValue) {
    return judge(history, initialValue).holds();
  }

  public static boolean holds(final History history, final Long initialValue, final WeakLevel level) {
    return decide(history, initialValue).get(level);
  }

  public static WeakVerdict judge(final History history, final Long initialValue) {
    return judge(history, initialValue, true);
  }

  /** As {@link #judge(History, Long)}; without {@code prune} only complete commit orders are checked. */
  static WeakVerdict judge(final History history, final Long initialValue, final boolean prune) {
    final Model m = Model.of(history, initialValue);
    final Map<WeakLevel, Boolean> holds = new EnumMap<>(WeakLevel.class);
    final Map<WeakLevel, List<String>> witnesses = new EnumMap<>(WeakLevel.class);
    for (final WeakLevel l : WeakLevel.values()) {
      holds.put(l, false);
    }
    final List<String> countedIds = m.counted.stream().map(Transaction::id).toList();
    if (!m.wellFormed) {
      return new WeakVerdict(Collections.unmodifiableMap(holds), Map.of(), countedIds);
    }
    final int[] wrRadix = m.reads.stream().mapToInt(ReadEvent::choices).toArray();
    final List<String> keys = new ArrayList<>(m.writersByKey.keySet());
    final long wrTotal = total(wrRadix);
    long voTotal = 1;
    for (final String key : keys) {
      for (int i = 2; i <= m.writersByKey.get(key).size(); i++) {
        voTotal *= i;
        if (voTotal > MAX_CHOICES) {
          throw new IllegalArgumentException("too many version orders for the oracle: " + key + " has "
              + m.writersByKey.get(key).size() + " writers");
        }
      }
    }
    if (wrTotal > MAX_CHOICES / voTotal) {
      throw new IllegalArgumentException("too many choices for the oracle: " + wrTotal + " x " + voTotal);
    }
    final List<List<int[]>> orders = new ArrayList<>();
    for (final String key : keys) {
      orders.add(permutationsAfterT0(m.writersByKey.get(key)));
    }
    final int[] voRadix = orders.stream().mapToInt(List::size).toArray();
    final int[] wrDigit = new int[wrRadix.length];
    for (long c = 0; c < wrTotal; c++, increment(wrDigit, wrRadix)) {
      final Choice choice = m.choice(wrDigit);
      for (final WeakLevel l : WeakLevel.values()) {
        if (l.axiomatic() && !holds.get(l) && choice.soWrAcyclic) {
          final int[] order = commitOrder(uniform(l, m.nodes), m, choice, prune);
          if (order != null) {
            holds.put(l, true);
            witnesses.put(l, ids(m, order));
          }
        }
      }
      final int[] voDigit = new int[voRadix.length];
      for (long v = 0; v < voTotal && !(holds.get(WeakLevel.RC_ADYA) && holds.get(WeakLevel.RR));
          v++, increment(voDigit, voRadix)) {
        final Dsg g = dsg(m, choice, keys, orders, voDigit);
        if (isAcyclic(union(g.ww, g.wr))) {
          holds.put(WeakLevel.RC_ADYA, true);
        }
        if (isAcyclic(union(g.ww, g.wr, g.rw))) {
          holds.put(WeakLevel.RR, true);
        }
      }
    }
    return new WeakVerdict(
        Collections.unmodifiableMap(holds), Collections.unmodifiableMap(witnesses), countedIds);
  }

  /**
   * A second formulation, for cross-checking the commit-order search only: for the levels whose
   * premise does not depend on co, a commit order exists iff so ∪ wr plus every required edge t2 →
   * t1 is acyclic (saturation, Biswas and Enea 2019, Section 4); and PL-2 holds iff wr alone is
   * acyclic for some choice of writers (then a topological order of wr, taken as every key's
   * version order, puts every ww and wr edge forward; conversely a wr cycle is a G1c whatever the
   * version order). Gives RC, RA, CC and RC_ADYA only.
   */
  static Map<WeakLevel, Boolean> bySaturation(final History history, final Long initialValue) {
    final Model m = Model.of(history, initialValue);
    final List<WeakLevel> levels = List.of(WeakLevel.RC, WeakLevel.RA, WeakLevel.CC);
    final Map<WeakLevel, Boolean> holds = new EnumMap<>(WeakLevel.class);
    levels.forEach(l -> holds.put(l, false));
    holds.put(WeakLevel.RC_ADYA, false);
    if (!m.wellFormed) {
      return holds;
    }
    final int[] radix = m.reads.stream().mapToInt(ReadEvent::choices).toArray();
    final int[] digit = new int[radix.length];
    for (long c = 0, total = total(radix); c < total; c++, increment(digit, radix)) {
      final Choice choice = m.choice(digit);
      if (isAcyclic(choice.wr())) {
        holds.put(WeakLevel.RC_ADYA, true);
      }
      for (final WeakLevel l : levels) {
        final long[] required = choice.soWr().clone();
        for (int r = 0; r < m.reads.size(); r++) {
          final int t1 = choice.writer()[r];
          final int t3 = m.reads.get(r).reader();
          final long writers = m.writersOf(m.reads.get(r).key());
          for (int t2 = 0; t2 < m.nodes; t2++) {
            if (t2 != t1 && (writers & bit(t2)) != 0
                && brokenInstance(l, m, choice, null, 0L, r, t2, t3, false)) {
              required[t2] |= bit(t1);
            }
          }
        }
        if (isAcyclic(required)) {
          holds.put(l, true);
        }
      }
    }
    return holds;
  }

  /**
   * Mixed levels (papers/mixed-isolation-sql.txt, Section 3.2, Definition 6): whether some commit order extends
   * so ∪ wr and makes every read satisfy the axioms of the level of the transaction it belongs to
   * ({@code levelOf}, asked for every counted transaction). A uniform assignment gives {@link
   * #decide}'s answer for that level. Only axiomatic levels can be mixed: Adya's have no commit
   * order.
   *
   * @throws IllegalArgumentException when a counted transaction's level is not axiomatic, or the
   *     history is too large
   */
  public static boolean decideMixed(
      final History history, final Long initialValue, final Function<Transaction, WeakLevel> levelOf) {
    return decideMixed(history, initialValue, levelOf, true);
  }

  static boolean decideMixed(
      final History history, final Long initialValue, final Function<Transaction, WeakLevel> levelOf,
      final boolean prune) {
    final Model m = Model.of(history, initialValue);
    final WeakLevel[] levels = new WeakLevel[m.nodes];
    for (int n = 1; n < m.nodes; n++) {
      final Transaction t = m.counted.get(n - 1);
      levels[n] = Objects.requireNonNull(levelOf.apply(t), () -> "no level for " + t.id());
      if (!levels[n].axiomatic()) {
        throw new IllegalArgumentException(t.id() + ": " + levels[n] + " has no commit-order axioms to mix");
      }
    }
    if (!m.wellFormed) {
      return false;
    }
    final int[] radix = m.reads.stream().mapToInt(ReadEvent::choices).toArray();
    final long total = total(radix);
    if (total > MAX_CHOICES) {
      throw new IllegalArgumentException("too many choices for the oracle: " + total);
    }
    final int[] digit = new int[radix.length];
    for (long c = 0; c < total; c++, increment(digit, radix)) {
      final Choice choice = m.choice(digit);
      if (choice.soWrAcyclic() && commitOrder(levels, m, choice, prune) != null) {
        return true;
      }
    }
    return false;
  }

  private static WeakLevel[] uniform(final WeakLevel level, final int nodes) {
    final WeakLevel[] out = new WeakLevel[nodes];
    Arrays.fill(out, level);
    return out;
  }

  private static List<String> ids(final Model m, final int[] order) {
    final List<String> out = new ArrayList<>();
    for (final int n : order) {
      if (n != T0) {
        out.add(m.counted.get(n - 1).id());
      }
    }
    return out;
  }

  // ---- the model: counted transactions, external reads, writers, session order ----

  /**
   * One external read event.
   *
   * @param reader its transaction's node
   * @param po its index among the transaction's ops (program order)
   * @param key the key read
   * @param candidates the nodes whose visible write of the key is the value read
   * @param sameAs the index of an earlier read event of the same transaction, key and value, whose
   *     writer this one shares, or -1 when this read's writer is a choice of its own
   */
  private record ReadEvent(int reader, int po, String key, int[] candidates, int sameAs) {
    /** How many writers this read may choose from independently: 1 when it shares an earlier one's. */
    int choices() {
      return sameAs < 0 ? candidates.length : 1;
    }
  }

  private static final class Model {
    final List<Transaction> counted;
    final int nodes;
    final boolean wellFormed;
    final List<ReadEvent> reads;
    /** Counted writers of each key (nodes), T0 left out. */
    final Map<String, List<Integer>> writersByKey;
    /** Per key, the nodes that write it, T0 included. */
    final Map<String, Long> writerMask;
    /** Row a has bit b when a and b write a common key (T0 writes every key). */
    final long[] shareWrite;
    final long[] so;

    private Model(final History history, final Long initial) {
      counted = counted(history);
      nodes = counted.size() + 1;
      if (nodes > Long.SIZE) {
        throw new IllegalArgumentException("too many transactions for the oracle: " + counted.size());
      }
      reads = externalReads(counted, initial);
      wellFormed = counted.stream().allMatch(WeakLevelOracle::readsOwnWrites)
          && reads.stream().allMatch(r -> r.candidates().length > 0);
      writersByKey = new LinkedHashMap<>();
      for (int i = 0; i < counted.size(); i++) {
        for (final String key : lastWrites(counted.get(i)).keySet()) {
          writersByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(i + 1);
        }
      }
      writerMask = new LinkedHashMap<>();
      writersByKey.forEach((key, ws) -> writerMask.put(key, ws.stream().mapToLong(OracleRelations::bit)
          .reduce(bit(T0), (a, b) -> a | b)));
      shareWrite = new long[nodes];
      for (int a = 1; a < nodes; a++) {
        final Set<String> mine = lastWrites(counted.get(a - 1)).keySet();
        if (!mine.isEmpty()) {
          shareWrite[a] |= bit(T0);
          shareWrite[T0] |= bit(a);
        }
        for (int b = 1; b < nodes; b++) {
          if (a != b && !Collections.disjoint(mine, lastWrites(counted.get(b - 1)).keySet())) {
            shareWrite[a] |= bit(b);
          }
        }
      }
      so = sessionOrder(counted);
    }

    static Model of(final History history, final Long initial) {
      return new Model(history, initial);
    }

    long writersOf(final String key) {
      return writerMask.getOrDefault(key, bit(T0));
    }

    Choice choice(final int[] digit) {
      final int[] writer = new int[reads.size()];
      final long[] wr = new long[nodes];
      for (int r = 0; r < reads.size(); r++) {
        final ReadEvent read = reads.get(r);
        writer[r] = read.sameAs() < 0 ? read.candidates()[digit[r]] : writer[read.sameAs()];
        wr[writer[r]] |= bit(read.reader());
      }
      final long[] soWr = union(so, wr);
      final long[] soWrPlus = closure(soWr);
      boolean acyclic = true;
      for (int i = 0; i < nodes; i++) {
        acyclic &= (soWrPlus[i] & bit(i)) == 0;
      }
      final long[] pred = new long[nodes];
      for (int a = 0; a < nodes; a++) {
        for (int b = 0; b < nodes; b++) {
          if ((soWr[a] & bit(b)) != 0) {
            pred[b] |= bit(a);
          }
        }
      }
      return new Choice(writer, wr, soWr, soWrPlus, pred, acyclic);
    }
  }

  /**
   * One choice of writer for every external read.
   *
   * @param writer per read event, its writer's node
   * @param wr write-read between transactions
   * @param soWr so ∪ wr
   * @param soWrPlus (so ∪ wr)+
   * @param pred per node, its direct so ∪ wr predecessors
   * @param soWrAcyclic whether some commit order can extend so ∪ wr at all
   */
  private record Choice(
      int[] writer, long[] wr, long[] soWr, long[] soWrPlus, long[] pred, boolean soWrAcyclic) {}

  /** Committed transactions plus unknown ones whose last write a counted one read externally, to a fixpoint. */
  private static List<Transaction> counted(final History history) {
    return OracleRelations.countedTransactions(history.transactions(), WeakLevelOracle::isReadBy);
  }

  private static boolean isReadBy(final Transaction u, final Set<Transaction> readers) {
    final Map<String, Long> written = lastWrites(u);
    for (final Transaction r : readers) {
      if (r == u) {
        continue;
      }
      for (final Op read : externalReadOps(r)) {
        if (written.containsKey(read.key()) && Objects.equals(written.get(read.key()), read.value())) {
          return true;
        }
      }
    }
    return false;
  }

  /** The reads not preceded by an own write of their key, in program order. */
  private static List<Op> externalReadOps(final Transaction t) {
    final Set<String> written = new LinkedHashSet<>();
    final List<Op> out = new ArrayList<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        written.add(op.key());
      } else if (!written.contains(op.key())) {
        out.add(op);
      }
    }
    return out;
  }

  /** A read after an own write of its key returns the latest such write. */
  private static boolean readsOwnWrites(final Transaction t) {
    final Map<String, Long> own = new LinkedHashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        own.put(op.key(), op.value());
      } else if (own.containsKey(op.key()) && !Objects.equals(own.get(op.key()), op.value())) {
        return false;
      }
    }
    return true;
  }

  private static List<ReadEvent> externalReads(final List<Transaction> counted, final Long initial) {
    final List<ReadEvent> out = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      final Transaction t = counted.get(i);
      final Set<String> written = new LinkedHashSet<>();
      for (int p = 0; p < t.ops().size(); p++) {
        final Op op = t.ops().get(p);
        if (op.isWrite()) {
          written.add(op.key());
          continue;
        }
        if (written.contains(op.key())) {
          continue;
        }
        final List<Integer> candidates = new ArrayList<>();
        if (Objects.equals(op.value(), initial)) {
          candidates.add(T0);
        }
        for (int j = 0; j < counted.size(); j++) {
          final Map<String, Long> w = lastWrites(counted.get(j));
          if (j != i && w.containsKey(op.key()) && Objects.equals(w.get(op.key()), op.value())) {
            candidates.add(j + 1);
          }
        }
        int sameAs = -1;
        for (int e = out.size() - 1; e >= 0 && out.get(e).reader() == i + 1; e--) {
          final Op earlier = t.ops().get(out.get(e).po());
          if (earlier.key().equals(op.key()) && Objects.equals(earlier.value(), op.value())) {
            sameAs = out.get(e).sameAs() < 0 ? e : out.get(e).sameAs();
          }
        }
        out.add(new ReadEvent(
            i + 1, p, op.key(), candidates.stream().mapToInt(Integer::intValue).toArray(), sameAs));
      }
    }
    return out;
  }

  // ---- axiomatic levels: commit orders ----

  /**
   * A commit order (nodes, T0 first) under which every read satisfies the axioms of its reader's
   * level ({@code levelOf} per node), or null when there is none.
   */
  private static int[] commitOrder(final WeakLevel[] levelOf, final Model m, final Choice c, final boolean prune) {
    final int[] pos = new int[m.nodes];
    Arrays.fill(pos, -1);
    pos[T0] = 0;
    final int[] order = new int[m.nodes];
    order[0] = T0;
    return extend(levelOf, m, c, pos, bit(T0), order, 1, prune) ? order : null;
  }

  private static boolean extend(
      final WeakLevel[] levelOf, final Model m, final Choice c, final int[] pos, final long placed,
      final int[] order, final int next, final boolean prune) {
    if (next == m.nodes) {
      return !violated(levelOf, m, c, pos, placed);
    }
    for (int n = 1; n < m.nodes; n++) {
      // co extends so ∪ wr: a node comes after all its predecessors.
      if ((placed & bit(n)) != 0 || (c.pred()[n] & ~placed) != 0) {
        continue;
      }
      pos[n] = next;
      order[next] = n;
      final long now = placed | bit(n);
      if ((!prune || !violated(levelOf, m, c, pos, now)) && extend(levelOf, m, c, pos, now, order, next + 1, prune)) {
        return true;
      }
      pos[n] = -1;
    }
    return false;
  }

  /**
   * Whether the (partial) commit order {@code pos} over the {@code placed} nodes breaks the axioms
   * of some read's level (the level of its transaction, {@code levelOf[t3]}),
   * whatever the order of the nodes still to place (which all come after the placed ones). On a
   * complete order this is the literal check of the axioms: for every read event τ of key x in t3
   * reading from t1, every t2 ≠ t1 that writes x, φ(t2, τ) ⇒ t2 co t1; and co ⊇ so ∪ wr.
   *
   * <p>On a prefix: an instance whose premise does not depend on co (RC, RA, CC) is broken once t1
   * is placed and t2 is not placed before it; an instance whose premise does (Prefix, Conflict,
   * SER) is judged once t1, t2 and t3 are placed (every t4 the premise needs then lies before t3,
   * so is placed too).
   */
  private static boolean violated(
      final WeakLevel[] levelOf, final Model m, final Choice c, final int[] pos, final long placed) {
    for (int a = 0; a < m.nodes; a++) {
      for (int b = 0; b < m.nodes; b++) {
        if ((c.soWr()[a] & bit(b)) != 0 && (placed & bit(b)) != 0
            && ((placed & bit(a)) == 0 || pos[a] >= pos[b])) {
          return true;
        }
      }
    }
    for (int r = 0; r < m.reads.size(); r++) {
      final ReadEvent read = m.reads.get(r);
      final int t1 = c.writer()[r];
      final int t3 = read.reader();
      if ((placed & bit(t1)) == 0) {
        continue;
      }
      final long writers = m.writersOf(read.key());
      for (int t2 = 0; t2 < m.nodes; t2++) {
        if (t2 == t1 || (writers & bit(t2)) == 0) {
          continue;
        }
        final boolean t2Placed = (placed & bit(t2)) != 0;
        final boolean conclusion = t2Placed && pos[t2] < pos[t1];
        if (conclusion) {
          continue;
        }
        if (brokenInstance(levelOf[t3], m, c, pos, placed, r, t2, t3, t2Placed)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether the premise φ(t2, τ) certainly holds, given that the conclusion t2 co t1 does not. */
  private static boolean brokenInstance(
      final WeakLevel level, final Model m, final Choice c, final int[] pos, final long placed,
      final int r, final int t2, final int t3, final boolean t2Placed) {
    final boolean allPlaced = t2Placed && (placed & bit(t3)) != 0;
    return switch (level) {
      case RC -> readEarlierFrom(m, c, r, t2);
      case RA -> (c.soWr()[t2] & bit(t3)) != 0;
      case CC -> (c.soWrPlus()[t2] & bit(t3)) != 0;
      case PC -> allPlaced && prefixPremise(m, c, pos, placed, t2, t3);
      case SI -> allPlaced && (prefixPremise(m, c, pos, placed, t2, t3) || conflictPremise(m, pos, placed, t2, t3));
      case SER -> allPlaced && pos[t2] < pos[t3];
      case RC_ADYA, RR -> throw new IllegalArgumentException(level + " is not axiomatic");
    };
  }

  /** RC: (t2, τ) ∈ wr ∘ po: an external read of τ's transaction before τ reads from t2. */
  private static boolean readEarlierFrom(final Model m, final Choice c, final int r, final int t2) {
    final ReadEvent tau = m.reads.get(r);
    for (int b = 0; b < m.reads.size(); b++) {
      final ReadEvent beta = m.reads.get(b);
      if (beta.reader() == tau.reader() && beta.po() < tau.po() && c.writer()[b] == t2) {
        return true;
      }
    }
    return false;
  }

  /** Prefix: (t2, t3) ∈ co* ∘ (so ∪ wr): some t4 with t2 co* t4 and t4 (so ∪ wr) t3. */
  private static boolean prefixPremise(
      final Model m, final Choice c, final int[] pos, final long placed, final int t2, final int t3) {
    for (int t4 = 0; t4 < m.nodes; t4++) {
      if ((placed & bit(t4)) != 0 && pos[t2] <= pos[t4] && (c.soWr()[t4] & bit(t3)) != 0) {
        return true;
      }
    }
    return false;
  }

  /** Conflict: some t4 and key y with t3 and t4 writing y, t2 co* t4 and t4 co t3. */
  private static boolean conflictPremise(
      final Model m, final int[] pos, final long placed, final int t2, final int t3) {
    for (int t4 = 0; t4 < m.nodes; t4++) {
      if ((placed & bit(t4)) != 0 && pos[t2] <= pos[t4] && pos[t4] < pos[t3]
          && (m.shareWrite[t3] & bit(t4)) != 0) {
        return true;
      }
    }
    return false;
  }

  // ---- Adya levels: the DSG for one version order ----

  private record Dsg(long[] ww, long[] wr, long[] rw) {}

  private static Dsg dsg(
      final Model m, final Choice c, final List<String> keys, final List<List<int[]>> orders, final int[] digit) {
    final long[] ww = new long[m.nodes];
    final long[] rw = new long[m.nodes];
    final Map<String, int[]> chosen = new LinkedHashMap<>();
    for (int k = 0; k < keys.size(); k++) {
      final int[] order = orders.get(k).get(digit[k]);
      chosen.put(keys.get(k), order);
      for (int a = 0; a < order.length; a++) {
        for (int b = a + 1; b < order.length; b++) {
          ww[order[a]] |= bit(order[b]);
        }
      }
    }
    for (int r = 0; r < m.reads.size(); r++) {
      final ReadEvent read = m.reads.get(r);
      final int writer = c.writer()[r];
      final int[] order = chosen.getOrDefault(read.key(), new int[] {T0});
      boolean after = false;
      for (final int t : order) {
        if (after && t != read.reader()) {
          rw[read.reader()] |= bit(t);
        }
        after |= t == writer;
      }
    }
    return new Dsg(ww, c.wr(), rw);
  }

  /** The levels that hold, weakest first, for messages. */
  public static String describe(final Map<WeakLevel, Boolean> holds) {
    final Set<String> ok = new TreeSet<>(Comparator.comparingInt(s -> WeakLevel.valueOf(s).ordinal()));
    holds.forEach((l, v) -> {
      if (v) {
        ok.add(l.name());
      }
    });
    return "holds " + ok;
  }
}
