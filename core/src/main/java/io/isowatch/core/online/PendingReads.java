package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * Store {@code pending-reads}: (key, value) → the external reads of counted transactions that
 * returned a value nobody has written yet, each with its reader, op and reader's end time. A
 * read is resolved when a writer of the value is processed; it becomes a ThinAirRead when the
 * processing order has passed its reader's end by more than the grace period, or at a flush.
 */
final class PendingReads {
  private static final byte PENDING = 0;
  private static final byte DONE = 1;

  private final KeyValueTable lists = new KeyValueTable(1 << 10);
  private final IntList reader = new IntList(1 << 10);
  private final IntList op = new IntList(1 << 10);
  private final IntList key = new IntList(1 << 10);
  private final LongList value = new LongList(1 << 10);
  private final LongList readerEnd = new LongList(1 << 10);
  private final IntList next = new IntList(1 << 10);
  private byte[] state = new byte[1 << 10];
  private byte[] wrote = new byte[1 << 10];
  /** Min-heap of entries by reader end (readers with an end only); resolved entries are skipped. */
  private final IntList heap = new IntList(1 << 10);
  private int firstMaybePending;
  private int waiting;
  /**
   * Per key id: its reads still waiting. A writer asks {@link #take} for each value it writes, and
   * nearly always no read of its key waits: this array answers that without probing {@link #lists}.
   */
  private int[] waitingOnKey = new int[1 << 10];

  /** Adds a pending read; {@code writesKey} when the reader also writes the key (an RMW). */
  void add(final int k, final long v, final int readerSlot, final int opIndex, final boolean writesKey,
      final long readerEndKey) {
    final int e = reader.size();
    reader.add(readerSlot);
    op.add(opIndex);
    key.add(k);
    value.add(v);
    readerEnd.add(readerEndKey);
    if (e == state.length) {
      state = Arrays.copyOf(state, 2 * e);
      wrote = Arrays.copyOf(wrote, 2 * e);
    }
    state[e] = PENDING;
    waiting++;
    if (k >= waitingOnKey.length) {
      waitingOnKey = Arrays.copyOf(waitingOnKey, Math.max(k + 1, 2 * waitingOnKey.length));
    }
    waitingOnKey[k]++;
    wrote[e] = (byte) (writesKey ? 1 : 0);
    final int head = lists.get(k, v);
    next.add(head > 0 ? head - 1 : -1);
    lists.put(k, v, e + 1);
    if (readerEndKey != TxnIndex.NO_END) {
      heapPush(e);
    }
  }

  /** Moves the reads waiting on (k, v) to {@code out} and forgets them. */
  void take(final int k, final long v, final IntList out) {
    if (k >= waitingOnKey.length || waitingOnKey[k] == 0) {
      return;
    }
    final int head = lists.get(k, v);
    if (head <= 0) {
      return;
    }
    for (int e = head - 1; e >= 0; e = next.get(e)) {
      if (state[e] == PENDING) {
        done(e);
        out.add(e);
      }
    }
    lists.put(k, v, 0);
  }

  /** Moves the reads whose reader ended before {@code bound} to {@code out}, oldest reader first. */
  void expireBefore(final long bound, final IntList out) {
    while (heap.size() > 0 && readerEnd.get(heap.get(0)) < bound) {
      final int e = heapPop();
      if (state[e] == PENDING) {
        done(e);
        out.add(e);
      }
    }
  }

  /** Moves every read still pending to {@code out}. */
  void drain(final IntList out) {
    for (int e = firstMaybePending; e < reader.size(); e++) {
      if (state[e] == PENDING) {
        done(e);
        out.add(e);
      }
    }
    firstMaybePending = reader.size();
    heap.clear();
  }

  /** The smallest {@code pos(reader)} over reads still waiting, or {@code Integer.MAX_VALUE}. */
  int minReader(final java.util.function.IntUnaryOperator pos) {
    int min = Integer.MAX_VALUE;
    if (waiting == 0) {
      return min;
    }
    for (int e = firstMaybePending; e < reader.size(); e++) {
      if (state[e] == PENDING) {
        min = Math.min(min, pos.applyAsInt(reader.get(e)));
      }
    }
    return min;
  }

  /** Forgets, without reporting them, the waiting reads that {@code keep} rejects (entry ids). */
  void retainOnly(final java.util.function.IntPredicate keep) {
    for (int e = firstMaybePending; e < reader.size(); e++) {
      if (state[e] == PENDING && !keep.test(e)) {
        done(e);
      }
    }
  }

  /** Calls {@code each} with every waiting read's entry id. */
  void forEachWaiting(final java.util.function.IntConsumer each) {
    for (int e = firstMaybePending; e < reader.size(); e++) {
      if (state[e] == PENDING) {
        each.accept(e);
      }
    }
  }

  private void done(final int e) {
    state[e] = DONE;
    waiting--;
    waitingOnKey[key.get(e)]--;
  }

  /** Reads still waiting for a writer. */
  int waiting() {
    return waiting;
  }

  int reader(final int e) {
    return reader.get(e);
  }

  int op(final int e) {
    return op.get(e);
  }

  int key(final int e) {
    return key.get(e);
  }

  long value(final int e) {
    return value.get(e);
  }

  boolean writesKey(final int e) {
    return wrote[e] != 0;
  }

  private void heapPush(final int e) {
    heap.add(e);
    int i = heap.size() - 1;
    final long end = readerEnd.get(e);
    while (i > 0) {
      final int parent = (i - 1) >>> 1;
      final int p = heap.get(parent);
      if (readerEnd.get(p) <= end) {
        break;
      }
      heap.set(i, p);
      i = parent;
    }
    heap.set(i, e);
  }

  private int heapPop() {
    final int top = heap.get(0);
    final int last = heap.removeLast();
    final int n = heap.size();
    if (n > 0) {
      int i = 0;
      final long end = readerEnd.get(last);
      while (true) {
        int c = 2 * i + 1;
        if (c >= n) {
          break;
        }
        if (c + 1 < n && readerEnd.get(heap.get(c + 1)) < readerEnd.get(heap.get(c))) {
          c++;
        }
        if (readerEnd.get(heap.get(c)) >= end) {
          break;
        }
        heap.set(i, heap.get(c));
        i = c;
      }
      heap.set(i, last);
    }
    return top;
  }
}
