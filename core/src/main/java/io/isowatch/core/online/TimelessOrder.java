package io.isowatch.core.online;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.Arrays;
import java.util.List;

/**
 * The order in which a flush releases the buffered transactions that have no time (text-format
 * histories, JSONL without start and end): a topological order of the dependencies their own ops
 * show, in place of π's round-robin over sessions by rank.
 *
 * <p>Round-robin by rank is not real time when sessions run at different rates: a transaction of a
 * slow session then comes long before the writes it read, and each of these backward edges makes
 * the level graphs search and reorder (a 250K-transaction, 64-session timeless history took about
 * twice the CPU of the same history with times). The arcs known before checking are session order,
 * a value's writer before its readers (WR), and, when one transaction both read a key's value and
 * wrote the key (a read-modify-write), the value's other readers before it (RW). Each transaction
 * gets a Lamport level over these arcs (one more than the highest level before it), and they are
 * released by level, ties by π. On a cycle of these arcs (a violation), the transaction first in π
 * of those left is taken as if its arcs from the rest were not there.
 *
 * <p>The order depends only on the buffered transactions and π among them, not on their arrival: a
 * whole-history check and a stream that buffered the same transactions until its flush release them
 * alike, and so name the same cycles. Values written more than once give no arcs. Session order is
 * kept; only which cycles are named can depend on the order, as with π.
 */
final class TimelessOrder {
  private TimelessOrder() {}

  /** {@code slots} (transactions in π order) in the order to release them; {@code session} gives each one's session id. */
  static int[] order(final int[] slots, final TxnIndex txns) {
    final int n = slots.length;
    if (n < 2) {
      return slots;
    }
    final Edges edges = new Edges(n);
    sessionOrder(slots, txns, edges);
    dataArcs(slots, txns, edges);
    final int[] level = levels(n, edges);
    final long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      packed[i] = ((long) level[i] << 32) | i;
    }
    Arrays.sort(packed);
    final int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = slots[(int) packed[i]];
    }
    return out;
  }

  private static void sessionOrder(final int[] slots, final TxnIndex txns, final Edges edges) {
    int[] last = new int[64];
    Arrays.fill(last, -1);
    for (int i = 0; i < slots.length; i++) {
      final int s = txns.session(slots[i]);
      if (s >= last.length) {
        final int old = last.length;
        last = Arrays.copyOf(last, Math.max(2 * old, s + 1));
        Arrays.fill(last, old, last.length, -1);
      }
      if (last[s] >= 0) {
        edges.add(last[s], i);
      }
      last[s] = i;
    }
  }

  /** WR arcs (writer before reader) and RW arcs (a value's readers before its one read-modify-writer). */
  private static void dataArcs(final int[] slots, final TxnIndex txns, final Edges edges) {
    // Sized for two writes a transaction: growing from small rehashed every value some ten times.
    final ValueTable values = new ValueTable(2 * slots.length);
    for (int i = 0; i < slots.length; i++) {
      for (final Op o : txns.txn(slots[i]).ops()) {
        if (o.isWrite()) {
          values.wrote(o.key(), o.value(), i);
        }
      }
    }
    // Readers of each value, as linked lists over the reads; its read-modify-writer (-2: several).
    int[] readerOf = new int[1024];
    int[] nextRead = new int[1024];
    int reads = 0;
    final int[] head = new int[values.size()];
    final int[] rmw = new int[values.size()];
    Arrays.fill(head, -1);
    Arrays.fill(rmw, -1);
    for (int i = 0; i < slots.length; i++) {
      final List<Op> ops = txns.txn(slots[i]).ops();
      for (int j = 0; j < ops.size(); j++) {
        final Op o = ops.get(j);
        if (!o.isRead() || o.isListRead() || o.value() == null) {
          continue;
        }
        final int e = values.find(o.key(), o.value());
        if (e < 0 || values.writer(e) == i) {
          continue;
        }
        final int w = values.writer(e);
        if (w >= 0) {
          edges.add(w, i);
        }
        if (reads == readerOf.length) {
          readerOf = Arrays.copyOf(readerOf, 2 * reads);
          nextRead = Arrays.copyOf(nextRead, 2 * reads);
        }
        readerOf[reads] = i;
        nextRead[reads] = head[e];
        head[e] = reads++;
        if (writesLater(ops, j, o.key())) {
          rmw[e] = rmw[e] == -1 || rmw[e] == i ? i : -2;
        }
      }
    }
    for (int e = 0; e < rmw.length; e++) {
      if (rmw[e] < 0 || values.writer(e) < 0) {
        continue;
      }
      for (int r = head[e]; r >= 0; r = nextRead[r]) {
        if (readerOf[r] != rmw[e]) {
          edges.add(readerOf[r], rmw[e]);
        }
      }
    }
  }

  /** Whether an op after {@code from} writes {@code key}: the read at {@code from} is then a read-modify-write's. */
  static boolean writesLater(final List<Op> ops, final int from, final String key) {
    for (int j = from + 1; j < ops.size(); j++) {
      final Op o = ops.get(j);
      if (o.isWrite() && o.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Lamport levels over the arcs (Kahn's algorithm); when every transaction left waits for another,
   * the first left in π goes on with the level its finished predecessors give it.
   */
  private static int[] levels(final int n, final Edges edges) {
    final int[] start = new int[n + 1];
    for (int k = 0; k < edges.size; k++) {
      start[edges.from[k] + 1]++;
    }
    for (int i = 0; i < n; i++) {
      start[i + 1] += start[i];
    }
    final int[] succ = new int[edges.size];
    final int[] fill = Arrays.copyOf(start, n);
    final int[] waiting = new int[n];
    for (int k = 0; k < edges.size; k++) {
      succ[fill[edges.from[k]]++] = edges.to[k];
      waiting[edges.to[k]]++;
    }
    final int[] level = new int[n];
    final boolean[] done = new boolean[n];
    final int[] queue = new int[n];
    int qHead = 0;
    int qTail = 0;
    for (int i = 0; i < n; i++) {
      if (waiting[i] == 0) {
        queue[qTail++] = i;
      }
    }
    int cursor = 0;
    int finished = 0;
    while (finished < n) {
      final int u;
      if (qHead < qTail) {
        u = queue[qHead++];
      } else {
        while (done[cursor]) {
          cursor++;
        }
        u = cursor; // a cycle: the first left in π goes first
      }
      if (done[u]) {
        continue;
      }
      done[u] = true;
      finished++;
      for (int k = start[u]; k < start[u + 1]; k++) {
        final int v = succ[k];
        if (done[v]) {
          continue;
        }
        level[v] = Math.max(level[v], level[u] + 1);
        if (--waiting[v] == 0) {
          queue[qTail++] = v;
        }
      }
    }
    return level;
  }

  /** Arcs as two growing int arrays. */
  private static final class Edges {
    int[] from;
    int[] to;
    int size;

    Edges(final int n) {
      from = new int[Math.max(16, 2 * n)];
      to = new int[from.length];
    }

    void add(final int a, final int b) {
      if (size == from.length) {
        from = Arrays.copyOf(from, 2 * size);
        to = Arrays.copyOf(to, 2 * size);
      }
      from[size] = a;
      to[size++] = b;
    }
  }

  /** (key, value) to its writer (-2: written more than once). */
  private static final class ValueTable {
    private final KeyValueIndex index;
    private int[] writers;

    /** A table that holds {@code expected} values without growing. */
    ValueTable(final int expected) {
      final int capacity = Integer.highestOneBit(Math.max(1 << 9, Math.min(expected, 1 << 28)) - 1) << 2;
      index = new KeyValueIndex(capacity);
      writers = new int[capacity / 2];
    }

    int size() {
      return index.size();
    }

    int writer(final int e) {
      return writers[e];
    }

    void wrote(final String key, final long value, final int txn) {
      final int known = index.size();
      final int e = index.add(key, value);
      if (e < known) {
        writers[e] = writers[e] == txn ? txn : -2;
        return;
      }
      if (e == writers.length) {
        writers = Arrays.copyOf(writers, 2 * e);
      }
      writers[e] = txn;
    }

    /** The entry of (key, value), or -1. */
    int find(final String key, final long value) {
      return index.find(key, value);
    }
  }
}
