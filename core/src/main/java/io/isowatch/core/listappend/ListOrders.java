package io.isowatch.core.listappend;

import io.isowatch.core.history.History;
import io.isowatch.core.history.LongList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
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

  /**
   * One key of the history, numbered once per check (la500k): every op of the history has its
   * slot ({@link #slot}), so the passes over every op of a check find a key's order, and what
   * they keep per key, in an array read rather than a string lookup each.
   */
  static final class Slot {
    final String key;
    /** The key's number: 0, 1, ... in order of the key's first op in the history. */
    final int id;
    /** The key's order once {@link #keys} has one (as {@link #peek} would find it), else null. */
    KeyOrder order;
    /** The key's committed reads, in history order (only while {@link ListOrders#of} runs). */
    List<ListRead> reads;

    Slot(final String key, final int id) {
      this.key = key;
      this.id = id;
    }
  }

  private final Map<String, KeyOrder> keys;
  private final Set<Transaction> counted;
  private final History history;
  /** Every key an op of the history names, to its slot. */
  private final Map<String, Slot> slots;
  /** Per transaction (by index), the index in {@link #opSlots} of its first op; one more at the end. */
  private final int[] opStart;
  /** Every op's slot, transaction after transaction. */
  private final Slot[] opSlots;
  /** Every append's place in its key's order (its element's first index; -1 when no read shows it); -1 for other ops. */
  private int[] opPositions;
  /** Per transaction, its session's number: 0, 1, ... in order of first appearance. */
  private final int[] sessionOf;
  private int sessionCount;

  private ListOrders(final Map<String, KeyOrder> keys, final Set<Transaction> counted, final History history,
      final Map<String, Slot> slots, final int[] opStart, final Slot[] opSlots) {
    this.keys = keys;
    this.counted = counted;
    this.history = history;
    this.slots = slots;
    this.opStart = opStart;
    this.opSlots = opSlots;
    this.sessionOf = new int[history.size()];
  }

  /**
   * Per transaction (by index), the number of its session: 0, 1, ... in order of the sessions'
   * first transactions. Numbered once per check, for the session order and its checks.
   */
  int[] sessionOf() {
    return sessionOf;
  }

  /** How many sessions the history has. */
  int sessionCount() {
    return sessionCount;
  }

  /** The slot of op {@code op} of the transaction at {@code txn} (its index in the history). */
  Slot slot(final int txn, final int op) {
    return opSlots[opStart[txn] + op];
  }

  /** The slot of a key some op of the history names, or null. */
  Slot slotOf(final String key) {
    return slots.get(key);
  }

  /**
   * The place in its key's order of the element op {@code op} of the transaction at {@code txn}
   * appends, as {@link KeyOrder#position(long)} gives it: looked up once per check for every
   * append, as the graph, the list anomalies and the translation all ask it. -1 for other ops.
   */
  int position(final int txn, final int op) {
    return opPositions[opStart[txn] + op];
  }

  /** How many keys the history's ops name (the slots' numbers are below it). */
  int slotCount() {
    return slots.size();
  }

  /** The key's order, as {@link #of(String)} gives it, without a lookup once the slot has it. */
  KeyOrder of(final Slot slot) {
    return slot.order != null ? slot.order : of(slot.key);
  }

  /**
   * Every key some op of the history names (read, appended or written, by any transaction),
   * unmodifiable: built once per check, as the stand-in keys' names and the statistics both need
   * it and a pass over every op costs as much as a phase of the check.
   */
  Set<String> historyKeys() {
    return java.util.Collections.unmodifiableSet(slots.keySet());
  }

  /** The key's order (an empty one for a key no committed read saw). */
  public KeyOrder of(final String key) {
    KeyOrder order = keys.get(key);
    if (order == null) {
      order = new KeyOrder(key);
      keys.put(key, order);
      final Slot slot = slots.get(key);
      if (slot != null) {
        slot.order = order;
      }
    }
    return order;
  }

  /** The key's order, or null for a key no committed read saw (unlike {@link #of}, adds none). */
  KeyOrder peek(final Slot slot) {
    return slot.order;
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
    final List<Transaction> txns = history.transactions();
    final int n = txns.size();
    final int[] opStart = new int[n + 1];
    for (int i = 0; i < n; i++) {
      opStart[i + 1] = opStart[i] + txns.get(i).ops().size();
    }
    final Slot[] opSlots = new Slot[opStart[n]];
    final Map<String, Slot> slots = new HashMap<>();
    final ListOrders result = new ListOrders(new LinkedHashMap<>(), counted(history), history, slots, opStart, opSlots);
    // Every op's key numbered in one pass, the reads gathered by key on the way (keys in order of first read)
    final List<Slot> read = new ArrayList<>();
    int at = 0;
    final io.isowatch.core.online.StringIntMap sessions = new io.isowatch.core.online.StringIntMap(64);
    String lastSession = null;
    int lastSessionId = -1;
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      if (!t.session().equals(lastSession)) { // one lookup per run of a session
        lastSession = t.session();
        lastSessionId = sessions.get(lastSession);
        if (lastSessionId < 0) {
          lastSessionId = result.sessionCount++;
          sessions.putNew(lastSession, lastSessionId);
        }
      }
      result.sessionOf[i] = lastSessionId;
      final List<Op> ops = t.ops();
      final boolean counted = result.counted(t);
      for (int o = 0; o < ops.size(); o++) {
        final Op op = ops.get(o);
        Slot slot = slots.get(op.key());
        if (slot == null) {
          slot = new Slot(op.key(), slots.size());
          slots.put(op.key(), slot);
        }
        opSlots[at++] = slot;
        if (counted && op.isRead()) {
          final List<Long> list = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
          if (list != null) {
            if (slot.reads == null) {
              slot.reads = new ArrayList<>();
              read.add(slot);
            }
            slot.reads.add(new ListRead(t, o, op.key(), list));
          }
        }
      }
    }
    final Map<String, KeyOrder> keys = result.keys;
    for (final Slot slot : read) {
      final KeyOrder order = new KeyOrder(slot.key);
      final List<ListRead> reads = slot.reads;
      slot.reads = null;
      slot.order = order;
      for (final ListRead r : reads) {
        if (order.longest == null || r.elements().size() > order.longest.elements().size()) {
          order.longest = r;
        }
      }
      // A prefix of the longest list repeats an element exactly when it is longer than the
      // longest list's first repetition: only the other reads need a set of their own.
      final int firstRepeat = order.longest == null ? 0 : firstRepeat(order.longest.elements());
      for (final ListRead r : reads) {
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
      for (final ListRead r : reads) {
        if (!order.isPrefix(r.elements())) {
          order.incompatible.add(r);
        }
      }
      keys.put(slot.key, order);
    }
    final int[] positions = new int[opStart[n]];
    for (int i = 0; i < n; i++) {
      final List<Op> ops = txns.get(i).ops();
      for (int o = 0, p = opStart[i]; o < ops.size(); o++, p++) {
        final Op op = ops.get(o);
        final KeyOrder order = opSlots[p].order;
        positions[p] = op.isAppend() && order != null ? order.position(op.value().longValue()) : -1;
      }
    }
    result.opPositions = positions;
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
