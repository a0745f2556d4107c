package io.isowatch.core.listappend;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The version order of every key of a list-append history, read off the lists [Elle, section
 * 4.2]: an append adds one element at the end, so every committed read returns a prefix of the
 * key's final list, and the longest committed read is the longest known prefix of the order.
 *
 * <p>What it records besides the order: the reads that are not a prefix of it (IncompatibleOrder),
 * the reads holding an element twice (DuplicateElements), the appender of every element, and the
 * committed appends of elements no committed read shows (unobserved, their place is after the
 * longest read, in an order nothing fixes).
 */
public final class ListOrders {

  /** A read of a list by a transaction that counts as committed: transaction, position of the op, the list. */
  public record ListRead(Transaction txn, int op, String key, List<Long> elements) {}

  /** One key's order and what contradicts it. */
  public static final class KeyOrder {
    private final String key;
    private ListRead longest;
    private final List<ListRead> incompatible = new ArrayList<>();
    private final List<ListRead> duplicates = new ArrayList<>();
    private final Map<Long, Integer> position = new HashMap<>();

    KeyOrder(final String key) {
      this.key = key;
    }

    public String key() {
      return key;
    }

    /** The longest committed read (the known prefix of the order), or null when no committed read saw a list. */
    public ListRead longest() {
      return longest;
    }

    /** The known order: the longest committed read's elements, empty when none. */
    public List<Long> order() {
      return longest == null ? List.of() : longest.elements();
    }

    /** Committed reads that are not a prefix of {@link #order()}. */
    public List<ListRead> incompatible() {
      return incompatible;
    }

    /** Committed reads holding an element more than once (the first such read of each list). */
    public List<ListRead> duplicates() {
      return duplicates;
    }

    /** The element's index in the order, or -1 when no committed read showed it. */
    public int position(final Long element) {
      final Integer p = position.get(element);
      return p == null ? -1 : p;
    }

    /** True when the read is a prefix of the order. */
    public boolean isPrefix(final List<Long> elements) {
      final List<Long> order = order();
      return elements.size() <= order.size() && order.subList(0, elements.size()).equals(elements);
    }
  }

  private final Map<String, KeyOrder> keys;
  private final Set<Transaction> counted;

  private ListOrders(final Map<String, KeyOrder> keys, final Set<Transaction> counted) {
    this.keys = keys;
    this.counted = counted;
  }

  /** The key's order (an empty one for a key no committed read saw). */
  public KeyOrder of(final String key) {
    return keys.computeIfAbsent(key, KeyOrder::new);
  }

  /** Every key some committed read saw, in order of first appearance. */
  public Iterable<KeyOrder> keys() {
    return keys.values();
  }

  /**
   * Reads the orders off the reads of the transactions that count as committed ({@link
   * #counted(Transaction)}). A read of an absent key ({@code r(k,null)} without a list) is the
   * empty list. Reads of aborted and of unseen indeterminate transactions fix nothing.
   */
  public static ListOrders of(final History history) {
    final Set<Transaction> counted = counted(history);
    final Map<String, List<ListRead>> reads = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      if (!counted.contains(t)) {
        continue;
      }
      for (int i = 0; i < t.ops().size(); i++) {
        final Op op = t.ops().get(i);
        if (op.isRead()) {
          final List<Long> list = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
          if (list != null) {
            reads.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(new ListRead(t, i, op.key(), list));
          }
        }
      }
    }
    final Map<String, KeyOrder> keys = new LinkedHashMap<>();
    for (final Map.Entry<String, List<ListRead>> e : reads.entrySet()) {
      final KeyOrder order = new KeyOrder(e.getKey());
      for (final ListRead r : e.getValue()) {
        if (order.longest == null || r.elements().size() > order.longest.elements().size()) {
          order.longest = r;
        }
        if (hasDuplicate(r.elements()) && order.duplicates.stream().noneMatch(d -> d.elements().equals(r.elements()))) {
          order.duplicates.add(r);
        }
      }
      final List<Long> known = order.order();
      for (int i = known.size() - 1; i >= 0; i--) {
        order.position.put(known.get(i), i); // the first occurrence wins when an element repeats
      }
      for (final ListRead r : e.getValue()) {
        if (!order.isPrefix(r.elements())) {
          order.incompatible.add(r);
        }
      }
      keys.put(e.getKey(), order);
    }
    return new ListOrders(keys, counted);
  }

  /**
   * The transactions that count as committed: the committed ones, and to a fixpoint every
   * indeterminate one whose appended element a read of a counted one shows (it took effect, as
   * the engine promotes an indeterminate writer that a committed transaction read).
   */
  private static Set<Transaction> counted(final History history) {
    final Set<Transaction> counted = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    final Map<String, List<Transaction>> unknownByElement = new HashMap<>();
    final java.util.ArrayDeque<Transaction> work = new java.util.ArrayDeque<>();
    for (final Transaction t : history.transactions()) {
      if (t.status() == TxnStatus.COMMITTED) {
        counted.add(t);
        work.add(t);
      } else if (t.status() == TxnStatus.UNKNOWN) {
        for (final Op op : t.ops()) {
          if (op.isAppend()) {
            unknownByElement.computeIfAbsent(op.key() + '\u0000' + op.value(), k -> new ArrayList<>(1)).add(t);
          }
        }
      }
    }
    while (!work.isEmpty() && !unknownByElement.isEmpty()) {
      final Transaction t = work.poll();
      for (final Op op : t.ops()) {
        if (!op.isListRead()) {
          continue;
        }
        for (final Long e : op.elements()) {
          final List<Transaction> writers = unknownByElement.remove(op.key() + '\u0000' + e);
          if (writers != null) {
            for (final Transaction w : writers) {
              if (counted.add(w)) {
                work.add(w);
              }
            }
          }
        }
      }
    }
    return counted;
  }

  /** True when the transaction counts as committed (committed, or indeterminate and seen). */
  public boolean counted(final Transaction t) {
    return counted.contains(t);
  }

  private static boolean hasDuplicate(final List<Long> elements) {
    final Set<Long> seen = new HashSet<>(elements.size() * 2);
    for (final Long e : elements) {
      if (!seen.add(e)) {
        return true;
      }
    }
    return false;
  }
}
