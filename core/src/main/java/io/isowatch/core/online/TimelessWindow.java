package io.isowatch.core.online;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.listappend.ListAppendCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@link TimelessOrder}'s order computed while a history without times is read, so that an {@link
 * InOrderFeed} can give its transactions to the engine before the end of the input (text files,
 * JSONL without start and end).
 *
 * <p>The whole-history check processes such a history in the order of {@link TimelessOrder}: by the
 * Lamport level of each transaction over the arcs its ops show (session order, a value's writer
 * before its readers, a value's readers before its one read-modify-writer), ties by π (rank in
 * session, session name, id). Here the same arcs are added as the transactions are read, each
 * level kept as the longest path to it (raised along the successors when an arc arrives late), and
 * a transaction is given out once no transaction read later can come before it: its level is at
 * most the level of every session's latest transaction (a session's next one lies above that), and
 * {@link #AGE} transactions were read after it (a writer or a reader read later would change its
 * level). What cannot be known while reading is a bet, lost (and the caller falls back to the
 * whole-history check) when the arcs would differ from {@link TimelessOrder}'s: a value written by
 * two transactions or read-modified by two (their arcs are dropped there), a cycle of arcs, a
 * transaction with a time or list operations, a session whose seqs stop being complete. At the
 * end, {@link #end} checks that what was given, with every level final, is sorted by (level, π):
 * being a permutation of the history, it is then {@link TimelessOrder}'s order, whatever was bet.
 */
final class TimelessWindow {
  /** Transactions read after one before it is given out (a late writer or reader changes a level). */
  static final int AGE = 4096;
  /** Sessions at most (each read looks at every session's latest level); more: the whole-history check. */
  static final int MAX_SESSIONS = 4096;

  /** Where the window gives transactions, with their rank in their session. */
  @FunctionalInterface
  interface Out {
    void give(Transaction t, long rank);
  }

  private Transaction[] txns = new Transaction[1 << 14];
  private long[] rank = new long[txns.length];
  private int[] level = new int[txns.length];
  private int[] session = new int[txns.length];
  private boolean[] given = new boolean[txns.length];
  /** Whether each transaction is in {@link #waiting} (a raise re-sorts only those). */
  private boolean[] held = new boolean[txns.length];
  /** Each session's latest transaction, by session id. */
  private int[] lastOf = new int[64];
  /** Successor arcs as linked lists: first arc of each transaction, next arc, arc target. */
  private int[] firstArc = new int[txns.length];
  private int[] nextArc = new int[4 * txns.length];
  private int[] arcTo = new int[nextArc.length];
  private int arcs;
  private int n;
  /** The raise's work list (kept: an arc into an older transaction raises at most a few). */
  private int[] stack = new int[64];

  private final Map<String, Integer> sessionIds = new HashMap<>();
  private final List<SessionState> sessions = new ArrayList<>();
  private final Values values = new Values();
  private final TreeSet<Integer> waiting = new TreeSet<>(this::compare);
  private int[] order = new int[txns.length];
  private int givenCount;
  private boolean lost;

  /** Per session: its name, latest transaction, count, whether every transaction had a seq. */
  private static final class SessionState {
    final String name;
    int last = -1;
    long count;
    long lastSeq;
    boolean allSeq = true;

    SessionState(final String name) {
      this.name = name;
    }
  }

  /** Whether a bet was lost: nothing more is given, and the caller checks the whole history. */
  boolean lost() {
    return lost;
  }

  /** Takes the next transaction in file order; gives what no later one can come before. False: the bet is lost. */
  boolean read(final Transaction t, final Out out) {
    if (lost) {
      return false;
    }
    if (TxnIndex.timeKey(t) != TxnIndex.NO_END || ListAppendCheck.isListAppend(t)) {
      return lose();
    }
    final int i = add(t);
    if (i < 0) {
      return false;
    }
    final SessionState s = sessions.get(session[i]);
    if (s.last >= 0) {
      arc(s.last, i);
    }
    s.last = i;
    lastOf[session[i]] = i;
    final List<Op> ops = t.ops();
    for (int j = 0; j < ops.size() && !lost; j++) {
      final Op o = ops.get(j);
      if (o.isWrite() && !wrote(o, i)) {
        return lose();
      }
    }
    for (int j = 0; j < ops.size() && !lost; j++) {
      final Op o = ops.get(j);
      if (o.isRead() && !o.isListRead() && o.value() != null) {
        readOf(o, ops, j, i);
      }
    }
    if (lost) {
      return false;
    }
    waiting.add(i);
    held[i] = true;
    if (sessions.size() > MAX_SESSIONS) {
      return lose();
    }
    if (n - waiting.first() <= AGE) {
      return true; // the first is too young: nothing leaves yet
    }
    int lowest = Integer.MAX_VALUE;
    for (int k = 0; k < sessions.size(); k++) {
      lowest = Math.min(lowest, level[lastOf[k]]);
    }
    while (!waiting.isEmpty()) {
      final int v = waiting.first();
      if (level[v] > lowest || n - v <= AGE) {
        break;
      }
      waiting.pollFirst();
      held[v] = false;
      give(v, out);
    }
    return true;
  }

  /**
   * Gives every transaction still waiting, then checks, with every level now final, that all that
   * was given is in (level, π) order. False: it is not (a bet was lost), and the caller checks the
   * whole history.
   */
  boolean end(final java.util.List<Transaction> history, final Out out) {
    if (lost) {
      return false;
    }
    if (history.size() != n) {
      return lose();
    }
    for (int i = 0; i < n; i++) {
      if (history.get(i) != txns[i]) {
        // The reader gave something the history does not hold as given (text lines joined later).
        return lose();
      }
    }
    while (!waiting.isEmpty()) {
      final int v = waiting.pollFirst();
      held[v] = false;
      give(v, out);
    }
    for (int k = 1; k < givenCount; k++) {
      if (compare(order[k - 1], order[k]) >= 0) {
        return lose();
      }
    }
    return givenCount == n || lose();
  }

  private void give(final int v, final Out out) {
    given[v] = true;
    if (givenCount == order.length) {
      order = Arrays.copyOf(order, 2 * givenCount);
    }
    order[givenCount++] = v;
    out.give(txns[v], rank[v]);
  }

  /** Indexes {@code t}: its session, its rank (seq when all of its session's have one, else position). */
  private int add(final Transaction t) {
    if (n == txns.length) {
      final int c = 2 * n;
      txns = Arrays.copyOf(txns, c);
      rank = Arrays.copyOf(rank, c);
      level = Arrays.copyOf(level, c);
      session = Arrays.copyOf(session, c);
      given = Arrays.copyOf(given, c);
      held = Arrays.copyOf(held, c);
      firstArc = Arrays.copyOf(firstArc, c);
    }
    Integer sid = sessionIds.get(t.session());
    if (sid == null) {
      sid = sessions.size();
      sessionIds.put(t.session(), sid);
      sessions.add(new SessionState(t.session()));
      if (sid == lastOf.length) {
        lastOf = Arrays.copyOf(lastOf, 2 * sid);
      }
    }
    final SessionState s = sessions.get(sid);
    final long r;
    if (!t.hasSeq()) {
      if (s.allSeq && s.count > 0) {
        // Ranked by seq so far; the whole history ranks this session by position.
        lose();
        return -1;
      }
      s.allSeq = false;
      r = s.count;
    } else {
      r = s.allSeq ? t.seq() : s.count;
      if (s.allSeq && s.count > 0 && r <= s.lastSeq) {
        // Session order (the arcs) follows rank, not the file: seqs must rise in the file.
        lose();
        return -1;
      }
      s.lastSeq = r;
    }
    s.count++;
    final int i = n++;
    txns[i] = t;
    rank[i] = r;
    session[i] = sid;
    firstArc[i] = -1;
    return i;
  }

  /** A write of {@code o} by {@code i}; false when another transaction wrote the same value. */
  private boolean wrote(final Op o, final int i) {
    if (o.value() == null) {
      return false;
    }
    final int e = values.entry(o.key(), o.value());
    final int w = values.writer[e];
    if (w == i) {
      return true;
    }
    if (w >= 0) {
      return false;
    }
    values.writer[e] = i;
    // Readers read before their writer: writer before each, and each before the read-modify-writer.
    final int rmw = values.rmw[e];
    for (int r = values.firstReader[e]; r >= 0 && !lost; r = values.nextReader[r]) {
      final int reader = values.reader[r];
      arc(i, reader);
      if (rmw >= 0 && reader != rmw) {
        arc(reader, rmw);
      }
    }
    return true;
  }

  /** The read {@code ops[j]} of transaction {@code i}. */
  private void readOf(final Op o, final List<Op> ops, final int j, final int i) {
    final int e = values.entry(o.key(), o.value());
    final int w = values.writer[e];
    if (w == i) {
      return;
    }
    if (w >= 0) {
      arc(w, i);
    }
    values.addReader(e, i);
    final int rmw = values.rmw[e];
    if (TimelessOrder.writesLater(ops, j, o.key())) {
      if (rmw == i) {
        return;
      }
      if (rmw >= 0) {
        lose(); // two read-modify-writers: TimelessOrder drops the value's arcs
        return;
      }
      values.rmw[e] = i;
      if (w >= 0) {
        for (int r = values.firstReader[e]; r >= 0 && !lost; r = values.nextReader[r]) {
          if (values.reader[r] != i) {
            arc(values.reader[r], i);
          }
        }
      }
    } else if (rmw >= 0 && w >= 0 && rmw != i) {
      arc(i, rmw);
    }
  }

  /** The arc u → v: v's level at least u's plus one, raised along v's successors; a cycle loses. */
  private void arc(final int u, final int v) {
    if (arcs == arcTo.length) {
      arcTo = Arrays.copyOf(arcTo, 2 * arcs);
      nextArc = Arrays.copyOf(nextArc, 2 * arcs);
    }
    arcTo[arcs] = v;
    nextArc[arcs] = firstArc[u];
    firstArc[u] = arcs++;
    if (level[v] > level[u]) {
      return;
    }
    int top = 0;
    raise(v, level[u] + 1);
    stack[top++] = v;
    while (top > 0 && !lost) {
      final int x = stack[--top];
      for (int a = firstArc[x]; a >= 0; a = nextArc[a]) {
        final int y = arcTo[a];
        if (level[y] > level[x]) {
          continue;
        }
        if (y == u) {
          lose(); // a cycle: TimelessOrder breaks it by π, over the whole history
          return;
        }
        if (!raise(y, level[x] + 1)) {
          return;
        }
        if (top == stack.length) {
          stack = Arrays.copyOf(stack, 2 * top);
        }
        stack[top++] = y;
      }
    }
  }

  /** Sets {@code v}'s level; false (the bet lost) when {@code v} was given already. */
  private boolean raise(final int v, final int to) {
    if (given[v]) {
      return lose();
    }
    if (held[v]) {
      waiting.remove(v);
      level[v] = to;
      waiting.add(v);
    } else {
      level[v] = to;
    }
    return true;
  }

  private boolean lose() {
    lost = true;
    waiting.clear();
    return false;
  }

  /** (level, rank, session name, id): {@link TimelessOrder}'s order, π breaking ties of level. */
  private int compare(final int a, final int b) {
    if (a == b) {
      return 0;
    }
    int c = Integer.compare(level[a], level[b]);
    if (c == 0) {
      c = Long.compare(rank[a], rank[b]);
    }
    if (c == 0 && session[a] != session[b]) {
      c = sessions.get(session[a]).name.compareTo(sessions.get(session[b]).name);
    }
    return c != 0 ? c : txns[a].id().compareTo(txns[b].id());
  }

  /** (key, value) entries: the writer (-1: none yet), the read-modify-writer (-1: none), the readers. */
  private static final class Values {
    // Sized for some 2^15 values before the first growth: growing from small rehashed every value many times.
    private final KeyValueIndex index = new KeyValueIndex(1 << 16);
    int[] writer = new int[1 << 15];
    int[] rmw = new int[writer.length];
    int[] firstReader = new int[writer.length];
    int[] reader = new int[1 << 15];
    int[] nextReader = new int[reader.length];
    private int readers;

    /** The entry of (key, value), made if new. */
    int entry(final String key, final long value) {
      final int known = index.size();
      final int e = index.add(key, value);
      if (e < known) {
        return e;
      }
      if (e == writer.length) {
        writer = Arrays.copyOf(writer, 2 * e);
        rmw = Arrays.copyOf(rmw, 2 * e);
        firstReader = Arrays.copyOf(firstReader, 2 * e);
      }
      writer[e] = -1;
      rmw[e] = -1;
      firstReader[e] = -1;
      return e;
    }

    void addReader(final int e, final int txn) {
      if (readers == reader.length) {
        reader = Arrays.copyOf(reader, 2 * readers);
        nextReader = Arrays.copyOf(nextReader, 2 * readers);
      }
      reader[readers] = txn;
      nextReader[readers] = firstReader[e];
      firstReader[e] = readers++;
    }
  }
}
