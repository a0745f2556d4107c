package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.Arrays;

/**
 * Store {@code txn-index}: transaction id → slot, and per slot the transaction, its session and
 * rank in the session, its place in the processing order π (once released) and whether it counts.
 * Slot 0 is the implicit initial transaction. Slots are given on arrival; they are only array
 * indices, never an order (π positions are).
 */
final class TxnIndex {
  static final int INIT = 0;
  /** Sorts after every end time in π: the transaction has no end time. */
  static final long NO_END = Long.MAX_VALUE;

  private static final byte COUNTED = 2;

  /**
   * Made on the first indexed id, sized for half the slots the index was made for: a cut's new
   * state indexes its whole retained segment at once, which growing from a small table rehashed
   * again and again; a whole-history check, which indexes no id, makes none.
   */
  private StringIntMap ids;
  private Transaction[] txns;
  private long[] endKey;
  private long[] rank;
  private int[] session;
  private int[] piPos;
  private byte[] flags;
  private int size = 1;
  private int released;
  /** Released slots by π position (release order), for a cut (docs/segmentation.md). */
  private final IntList order;
  /** Released indeterminate slots, in processing order (those never promoted are ignored). */
  private final IntList indeterminate = new IntList(64);

  TxnIndex(final int expected) {
    final int n = Math.max(1 << 10, expected + 1);
    txns = new Transaction[n];
    endKey = new long[n];
    rank = new long[n];
    session = new int[n];
    piPos = new int[n];
    flags = new byte[n];
    session[INIT] = -1;
    piPos[INIT] = -1;
    flags[INIT] = COUNTED;
    order = new IntList(n);
  }

  /** The slot of the transaction with this id, or -1. */
  int slotOf(final String id) {
    return ids == null ? -1 : ids.get(id);
  }

  /**
   * Adds a transaction; with {@code indexId} false its id is not indexed (the caller guarantees
   * ids are unique, as a {@link WholeHistoryCheck} does), and {@link #slotOf} will not find it.
   */
  int add(final Transaction t, final long rankInSession, final int sessionId, final boolean indexId) {
    if (size == txns.length) {
      final int n = 2 * size;
      txns = Arrays.copyOf(txns, n);
      endKey = Arrays.copyOf(endKey, n);
      rank = Arrays.copyOf(rank, n);
      session = Arrays.copyOf(session, n);
      piPos = Arrays.copyOf(piPos, n);
      flags = Arrays.copyOf(flags, n);
    }
    final int slot = size++;
    txns[slot] = t;
    endKey[slot] = timeKey(t);
    rank[slot] = rankInSession;
    session[slot] = sessionId;
    piPos[slot] = -1;
    if (indexId) {
      if (ids == null) {
        ids = new StringIntMap(Math.max(1 << 10, txns.length / 2));
      }
      ids.putNew(t.id(), slot);
    }
    return slot;
  }

  /**
   * The time π orders a transaction by: its end; its start when its client never saw it end (an
   * indeterminate transaction, whose writes may be visible from its start on); {@link #NO_END}
   * when it has neither.
   */
  static long timeKey(final Transaction t) {
    if (t.end() != Transaction.NO_TIME) {
      return t.end();
    }
    return t.start() != Transaction.NO_TIME ? t.start() : NO_END;
  }

  /** Slots in use, the initial transaction's included. */
  int size() {
    return size;
  }

  Transaction txn(final int slot) {
    return txns[slot];
  }

  TxnStatus status(final int slot) {
    return txns[slot].status();
  }

  /** The time π orders the transaction by ({@link #timeKey}). */
  long endKey(final int slot) {
    return endKey[slot];
  }

  long rank(final int slot) {
    return rank[slot];
  }

  int session(final int slot) {
    return session[slot];
  }

  /** Position in the processing order; -1 for the initial transaction and unreleased ones. */
  int piPos(final int slot) {
    return piPos[slot];
  }

  void markReleased(final int slot) {
    piPos[slot] = released++;
    order.add(slot);
  }

  /** Transactions released so far. */
  int released() {
    return released;
  }

  /** The slot released at π position {@code pos}. */
  int releasedAt(final int pos) {
    return order.get(pos);
  }

  /** A released indeterminate transaction: dormant until a read of one of its writes promotes it. */
  void markIndeterminate(final int slot) {
    indeterminate.add(slot);
  }

  /** Indeterminate transactions released so far ({@link #indeterminateAt}). */
  int indeterminateCount() {
    return indeterminate.size();
  }

  /** The {@code i}-th indeterminate transaction released (promoted ones are counted as well). */
  int indeterminateAt(final int i) {
    return indeterminate.get(i);
  }

  void markCounted(final int slot) {
    flags[slot] |= COUNTED;
  }

  /** Committed, or indeterminate and promoted because a counted transaction read its write. */
  boolean isCounted(final int slot) {
    return (flags[slot] & COUNTED) != 0;
  }
}
