package io.isowatch.core.listappend;

import io.isowatch.core.history.History;
import io.isowatch.core.history.LongList;
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
    /** Each element's first index in the order; null until the order is known (no committed read: none). */
    private LongIntMap position;
    /** Which places of the order an append fills, as ListAnomalies marks them, and the check that owns the marks. */
    private boolean[] marks;
    private Object marksOwner;

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

    /** The element's index in the order, or -1 when no committed read showed it (or it is null). */
    public int position(final Long element) {
      return element == null ? -1 : position(element.longValue());
    }

    /** As {@link #position(Long)}, without a box. */
    public int position(final long element) {
      return position == null ? -1 : position.get(element);
    }

    /**
     * The marks of {@code owner} (one array per key and check, all false when first asked): kept
     * here so that a pass over every append finds them with the key's order, in one lookup.
     */
    boolean[] scratchMarks(final Object owner) {
      if (marksOwner != owner) {
        marksOwner = owner;
        marks = new boolean[order().size()];
      }
      return marks;
    }

    /** The marks {@code owner} made ({@link #scratchMarks}), or null when it made none. */
    boolean[] marksOf(final Object owner) {
      return marksOwner == owner ? marks : null;
    }

    /** True when the read is a prefix of the order. */
    public boolean isPrefix(final List<Long> elements) {
      if (longest == null) {
        return elements.isEmpty();
      }
      // Lists of Op reads are LongLists: compared as arrays, without boxing.
      return LongList.copyOf(elements).prefixOf(LongList.copyOf(longest.elements()));
    }
  }

  private final Map<String, KeyOrder> keys;
  private final Set<Transaction> counted;
  private final History history;
  /** Every key an op of the history names, built on first use ({@link #historyKeys}). */
  private Set<String> historyKeys;

  private ListOrders(final Map<String, KeyOrder> keys, final Set<Transaction> counted, final History history) {
    this.keys = keys;
    this.counted = counted;
    this.history = history;
  }

  /**
   * Every key some op of the history names (read, appended or written, by any transaction),
   * unmodifiable: built once per check, as the stand-in keys' names and the statistics both need
   * it and a pass over every op costs as much as a phase of the check.
   */
  Set<String> historyKeys() {
    if (historyKeys == null) {
      final Set<String> all = new HashSet<>();
      for (final Transaction t : history.transactions()) {
        final List<Op> ops = t.ops();
        for (int i = 0; i < ops.size(); i++) {
          all.add(ops.get(i).key());
        }
      }
      historyKeys = java.util.Collections.unmodifiableSet(all);
    }
    return historyKeys;
  }

  /** The key's order (an empty one for a key no committed read saw). */
  public KeyOrder of(final String key) {
    return keys.computeIfAbsent(key, KeyOrder::new);
  }

  /** The key's order, or null for a key no committed read saw (unlike {@link #of}, adds none). */
  KeyOrder peek(final String key) {
    return keys.get(key);
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
    final ListOrders result = new ListOrders(new LinkedHashMap<>(), counted(history), history);
    final Map<String, List<ListRead>> reads = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      if (!result.counted(t)) {
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
    final Map<String, KeyOrder> keys = result.keys;
    for (final Map.Entry<String, List<ListRead>> e : reads.entrySet()) {
      final KeyOrder order = new KeyOrder(e.getKey());
      for (final ListRead r : e.getValue()) {
        if (order.longest == null || r.elements().size() > order.longest.elements().size()) {
          order.longest = r;
        }
      }
      // A prefix of the longest list repeats an element exactly when it is longer than the
      // longest list's first repetition: only the other reads need a set of their own.
      final int firstRepeat = order.longest == null ? 0 : firstRepeat(order.longest.elements());
      for (final ListRead r : e.getValue()) {
        final boolean repeats = order.isPrefix(r.elements()) ? r.elements().size() > firstRepeat
            : firstRepeat(r.elements()) < r.elements().size();
        if (repeats && order.duplicates.stream().noneMatch(d -> d.elements().equals(r.elements()))) {
          order.duplicates.add(r);
        }
      }
      final LongList known = LongList.copyOf(order.order());
      order.position = new LongIntMap(known.size());
      for (int i = 0; i < known.size(); i++) {
        order.position.putIfAbsent(known.at(i), i); // the first occurrence wins when an element repeats
      }
      for (final ListRead r : e.getValue()) {
        if (!order.isPrefix(r.elements())) {
          order.incompatible.add(r);
        }
      }
      keys.put(e.getKey(), order);
    }
    return result;
  }

  /**
   * The transactions that count as committed: the committed ones, and to a fixpoint every
   * indeterminate one whose appended element a read of a counted one shows (it took effect, as
   * the engine promotes an indeterminate writer that a committed transaction read).
   */
  private static Set<Transaction> counted(final History history) {
    // The committed ones are in the set only while the fixpoint runs; counted(t) tests their status.
    final Map<String, List<Transaction>> unknownByElement = new HashMap<>();
    for (final Transaction t : history.transactions()) {
      if (t.status() == TxnStatus.UNKNOWN) {
        for (final Op op : t.ops()) {
          if (op.isAppend()) {
            unknownByElement.computeIfAbsent(op.key() + '\u0000' + op.value(), k -> new ArrayList<>(1)).add(t);
          }
        }
      }
    }
    if (unknownByElement.isEmpty()) {
      return Set.of(); // no indeterminate append: counted is committed
    }
    final Set<Transaction> counted = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    final java.util.ArrayDeque<Transaction> work = new java.util.ArrayDeque<>();
    for (final Transaction t : history.transactions()) {
      if (t.status() == TxnStatus.COMMITTED) {
        counted.add(t);
        work.add(t);
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
    return t.status() == TxnStatus.COMMITTED || t.status() == TxnStatus.UNKNOWN && counted.contains(t);
  }

  /** The index of the first element that repeats an earlier one, the list's size when none does. */
  private static int firstRepeat(final List<Long> elements) {
    final LongList list = LongList.copyOf(elements);
    final LongIntMap seen = new LongIntMap(list.size());
    for (int i = 0; i < list.size(); i++) {
      if (!seen.putIfAbsent(list.at(i), i)) {
        return i;
      }
    }
    return list.size();
  }
}
