package io.isowatch.core.oracle;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * What the brute-force oracles share: which transactions count, the session order, and small
 * relations over nodes as bit rows (node 0 is T0, the initial transaction; node i + 1 is the
 * i-th counted transaction; row {@code a} has bit {@code b} set when a → b), and the mixed-radix
 * enumeration of choices. Histories are small (at most 63 nodes), so a row is one long.
 */
final class OracleRelations {
  /** The initial transaction's node. */
  static final int T0 = 0;

  private OracleRelations() {}

  /**
   * Committed transactions plus unknown ones that a counted transaction read from, to a fixpoint,
   * in source order (node numbers stay stable and failures easy to read). Each oracle says what
   * "read from" means for its own levels ({@code isReadBy(u, counted)}).
   */
  static List<Transaction> countedTransactions(
      final List<Transaction> transactions, final BiPredicate<Transaction, Set<Transaction>> isReadBy) {
    final Set<Transaction> counted = new LinkedHashSet<>();
    for (final Transaction t : transactions) {
      if (t.status() == TxnStatus.COMMITTED) {
        counted.add(t);
      }
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (final Transaction u : transactions) {
        if (u.status() == TxnStatus.UNKNOWN && !counted.contains(u) && isReadBy.test(u, counted)) {
          counted.add(u);
          changed = true;
        }
      }
    }
    return transactions.stream().filter(counted::contains).toList();
  }

  /** The last value written to each key: the only writes other transactions may see. */
  static Map<String, Long> lastWrites(final Transaction t) {
    final Map<String, Long> writes = new LinkedHashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        writes.put(op.key(), op.value());
      }
    }
    return writes;
  }

  /** T0 before every node, and each session's transactions in order (by seq when all have one). */
  static long[] sessionOrder(final List<Transaction> counted) {
    final long[] so = new long[counted.size() + 1];
    for (int i = 1; i <= counted.size(); i++) {
      so[T0] |= bit(i);
    }
    final Map<String, List<Integer>> bySession = new LinkedHashMap<>();
    for (int i = 0; i < counted.size(); i++) {
      bySession.computeIfAbsent(counted.get(i).session(), s -> new ArrayList<>()).add(i);
    }
    for (final List<Integer> members : bySession.values()) {
      final List<Integer> ordered = new ArrayList<>(members);
      if (members.stream().allMatch(i -> counted.get(i).hasSeq())) {
        ordered.sort(Comparator.comparingLong(i -> counted.get(i).seq()));
      }
      for (int a = 0; a < ordered.size(); a++) {
        for (int b = a + 1; b < ordered.size(); b++) {
          so[ordered.get(a) + 1] |= bit(ordered.get(b) + 1);
        }
      }
    }
    return so;
  }

  /** Every total order of the writers, each prefixed with T0. */
  static List<int[]> permutationsAfterT0(final List<Integer> writers) {
    final List<int[]> out = new ArrayList<>();
    permute(new ArrayList<>(writers), new ArrayList<>(List.of(T0)), out);
    return out;
  }

  private static void permute(final List<Integer> rest, final List<Integer> prefix, final List<int[]> out) {
    if (rest.isEmpty()) {
      out.add(prefix.stream().mapToInt(Integer::intValue).toArray());
      return;
    }
    for (int i = 0; i < rest.size(); i++) {
      final Integer next = rest.remove(i);
      prefix.add(next);
      permute(rest, prefix, out);
      prefix.remove(prefix.size() - 1);
      rest.add(i, next);
    }
  }

  /** How many choices a mixed radix spans (digit d takes radix[d] values). */
  static long total(final int[] radix) {
    long total = 1;
    for (final int r : radix) {
      total = Math.multiplyExact(total, r);
    }
    return total;
  }

  /** The next choice of a mixed-radix counter, the lowest digit first. */
  static void increment(final int[] digit, final int[] radix) {
    for (int d = 0; d < digit.length; d++) {
      digit[d]++;
      if (digit[d] < radix[d]) {
        return;
      }
      digit[d] = 0;
    }
  }

  static long[] union(final long[]... rels) {
    final long[] out = new long[rels[0].length];
    for (final long[] rel : rels) {
      for (int i = 0; i < out.length; i++) {
        out[i] |= rel[i];
      }
    }
    return out;
  }

  /** Floyd-Warshall transitive closure. */
  static long[] closure(final long[] rel) {
    final long[] out = rel.clone();
    for (int k = 0; k < out.length; k++) {
      for (int i = 0; i < out.length; i++) {
        if ((out[i] & bit(k)) != 0) {
          out[i] |= out[k];
        }
      }
    }
    return out;
  }

  /** No node reaches itself in the closure. */
  static boolean isAcyclic(final long[] rel) {
    final long[] closure = closure(rel);
    for (int i = 0; i < closure.length; i++) {
      if ((closure[i] & bit(i)) != 0) {
        return false;
      }
    }
    return true;
  }

  static long bit(final int node) {
    return 1L << node;
  }
}
