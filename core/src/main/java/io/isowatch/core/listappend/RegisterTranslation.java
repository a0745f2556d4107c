package io.isowatch.core.listappend;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a list-append history into a register history the engine decides exactly, given the
 * orders of {@link ListOrders} (docs/list-append.md, "How it is decided").
 *
 * <p>A version of a key is named by its last element (the empty list: the key is absent, so the
 * check runs with {@code --initial-value null}). A read of a list becomes a read of its last
 * element. An append of {@code v} becomes a write of {@code v} preceded by a read of the element
 * before {@code v} in the order, unless the transaction already read or wrote the key (then that
 * op's version is what the append builds on, as a mini-transaction's write builds on its read).
 * So the engine's WR, WW and RW edges are exactly those of the lists: WW from the appender of one
 * element to the appender of the next, WR from the appender of a list's last element to its
 * reader, RW from the reader of a prefix to the appender of the element after it.
 *
 * <p>Elements no transaction appended (thin air) and elements of aborted appenders are skipped
 * when a read or an append looks for the version it names or builds on: neither is a version of
 * the committed order ({@link ListAnomalies} reports the reads showing them, wherever in a list).
 * Reads that are no prefix of the order, and every read of a key whose lists repeat an element,
 * are left out (they are anomalies of their own). A committed append no committed read shows
 * follows the longest read; when it is the key's only such append that is its exact place; when
 * there are several, their mutual order is open: they become blind writes of a stand-in key
 * ({@link Phantom}) whose initial version the readers of the latest list and the appender of its
 * last element read, so that the engine's certain edges from an initial version put every one of
 * them after those transactions, and nothing orders them among themselves. Those are exactly the
 * edges every order of them has in common, which decides SER and SSER (acyclicity: see
 * docs/list-append.md); SI is then searched, and when found satisfied, searched again on {@link
 * #translateForSnapshotIsolation}, which has the WW edges of the base's appender.
 */
public final class RegisterTranslation {
  /**
   * The end given to a seen indeterminate transaction the client never saw end: later than every
   * start, so that it precedes no transaction in real time, as an indeterminate one does.
   */
  static final long NEVER_ENDED = Long.MAX_VALUE / 4;

  private final ListOrders orders;
  /** Per key, the elements a transaction that did not abort appended (the versions of the committed order). */
  private final Map<String, Set<Long>> liveElements = new HashMap<>();
  /**
   * Per key, for each length {@code n} of its known order, the index of the last element before
   * {@code n} that is live, or -1: {@link #base} in one array read (built on first use).
   */
  private final Map<String, int[]> lastLive = new HashMap<>();
  /** Whether the base's appender writes the stand-in key's first version ({@link #translateForSnapshotIsolation}). */
  private final boolean baseWritten;
  private final Map<String, Integer> unobservedCommitted;
  /** The committed transactions with an op on a key of an open order, when known beforehand; else null. */
  private final java.util.BitSet committedTouching;
  private final Map<String, Phantom> phantoms = new HashMap<>();
  /**
   * True when every element of every order is live (appended by a transaction that did not abort),
   * as the lists' graph checks: {@link #base} then needs no live elements ({@link #openOrdersFromGraph}).
   */
  private boolean allLive;

  private RegisterTranslation(final ListOrders orders, final boolean baseWritten, final OpenAppends known) {
    this.orders = orders;
    this.baseWritten = baseWritten;
    this.unobservedCommitted = known == null ? new HashMap<>() : known.unobservedCommitted();
    this.committedTouching = known == null ? null : known.committedTouching();
  }

  /**
   * What {@link ListSerialGraph} found while building the lists' graph of a history with only
   * committed and aborted transactions: per key, the committed appends no read shows, counted in
   * history order (the map {@link #indexAppends} would build, equal in content and iteration order);
   * and the committed transactions with an op on a key with several of them. Given to {@link
   * #openOrdersOnlyTouching}, it spares a pass over every op and a lookup per op.
   */
  record OpenAppends(Map<String, Integer> unobservedCommitted, java.util.BitSet committedTouching) {}

  /**
   * The translated history and, per transaction id, the position in the original ops of each
   * translated op (an append's read and write both map to the append); the stand-in keys, the keys
   * whose unobserved appends have an open order, and whether the history has register writes (when
   * it has none, every blind write of the translation is an unobserved append).
   */
  public record Translated(History history, Map<String, int[]> origin, Map<String, Phantom> phantoms,
      Set<String> openKeys, boolean registerWrites) {}

  /**
   * The stand-in key of an open key's unobserved appends: they all come after the key's latest
   * version any read shows ({@code base}, null for none), in an order nothing fixes.
   *
   * @param key the original key
   * @param name the stand-in key's name in the translation
   * @param base the latest version a read shows, which every unobserved append follows
   */
  public record Phantom(String key, String name, Long base) {}

  /** The register history with the same transactions (same ids, sessions, times, statuses). */
  public static Translated translate(final History history, final ListOrders orders) {
    return translate(history, orders, false);
  }

  /**
   * The translation that decides SI exactly when a key has a stand-in: there the stand-in's
   * initial version stands for the base, so {@link #translate} gives the base's appender a read of
   * it, an RW edge to every unobserved append where the lists give WW. SSER and SER do not tell the
   * two apart (acyclicity), SI does: an RW edge next to another RW edge closes no SI-forbidden
   * cycle, the WW edge does. Here the base's appender instead writes the stand-in key's first
   * version (the base, after reading the initial one, so first in every order) and the readers of
   * the base read that version: the search of version orders then has the WW edges the lists give.
   * The engine's certain edges of an initial version no longer reach the unobserved appends, so
   * this translation is for the SI verdict only (ListAppendCheck).
   */
  public static Translated translateForSnapshotIsolation(final History history, final ListOrders orders) {
    return translate(history, orders, true);
  }

  /**
   * The part of {@link #translate} that only the open orders of unobserved appends give: every
   * transaction (same ids, sessions, times, statuses), with only its translated ops on the keys
   * whose unobserved appends have an open order (their stand-in keys, or the key itself when it has
   * none). The engine's findings of blind writes on it are those it has on the whole translation,
   * which has no other blind write when the history has no register op; {@link ListAppendCheck}
   * runs the engine on it when the lists' own graph ({@link ListSerialGraph}) decided the levels.
   * No origin map.
   */
  static Translated openOrdersOnly(final History history, final ListOrders orders) {
    return translate(history, orders, false, true, false, null);
  }

  /**
   * As {@link #openOrdersOnly}, with only the transactions that have an op left, and without seq
   * numbers (the input order is the session order): for a history whose sessions and times give
   * the engine no finding, checked in ListAppendCheck, the engine then finds the same blind writes
   * in the same order, without going through every transaction.
   */
  static Translated openOrdersOnlyTouching(final History history, final ListOrders orders) {
    return openOrdersOnlyTouching(history, orders, null);
  }

  /** As {@link #openOrdersOnlyTouching(History, ListOrders)}, with what the lists' graph found ({@code known}, or null). */
  static Translated openOrdersOnlyTouching(final History history, final ListOrders orders, final OpenAppends known) {
    final Translated all = translate(history, orders, false, true, true, known);
    final History.Builder out = History.builder();
    for (final Transaction t : all.history().transactions()) {
      if (!t.ops().isEmpty()) {
        out.add(new Transaction(t.id(), t.session(), Transaction.NO_SEQ, t.status(), t.start(), t.end(), t.ops(),
            t.tenant(), t.level(), t.line()));
      }
    }
    return new Translated(out.build(), all.origin(), all.phantoms(), all.openKeys(), all.registerWrites());
  }

  private static Translated translate(final History history, final ListOrders orders, final boolean baseWritten) {
    return translate(history, orders, baseWritten, false, false, null);
  }

  private static Translated translate(final History history, final ListOrders orders, final boolean baseWritten,
      final boolean openOnly, final boolean touchingOnly, final OpenAppends known) {
    if (openOnly && known != null && !baseWritten) {
      return openOrdersFromGraph(history, orders, touchingOnly, known);
    }
    final RegisterTranslation t = new RegisterTranslation(orders, baseWritten, known);
    t.indexAppends(history, openOnly, known != null);
    final History.Builder out = History.builder();
    t.phantoms(history);
    final Map<String, int[]> origin = new HashMap<>(openOnly ? 16 : history.size() * 2);
    final Set<String> kept = new HashSet<>();
    if (openOnly) {
      t.unobservedCommitted.forEach((k, n) -> {
        if (n > 1) {
          final Phantom p = t.phantoms.get(k);
          kept.add(p == null ? k : p.name());
        }
      });
    }
    boolean registerWrites = false;
    final List<Integer> scratch = new ArrayList<>(); // openOnly keeps no origin map
    final List<Transaction> txns = history.transactions();
    for (int index = 0; index < txns.size(); index++) {
      final Transaction txn = txns.get(index);
      if (!openOnly) { // (a history with open orders on the lists' graph has no register op)
        for (final Op op : txn.ops()) {
          registerWrites |= op.isWrite();
        }
        final List<Integer> from = new ArrayList<>(txn.ops().size() + 2);
        out.add(t.translate(txn, from));
        origin.putIfAbsent(txn.id(), from.stream().mapToInt(Integer::intValue).toArray());
        continue;
      }
      final boolean touches = !t.unobservedCommitted.isEmpty()
          && (t.committedTouching != null && txn.status() == TxnStatus.COMMITTED ? t.committedTouching.get(index)
              : t.touchesOpenKey(txn));
      if (!touches && touchingOnly) {
        continue;
      }
      scratch.clear();
      final Transaction translated = touches ? t.translate(txn, scratch) : t.withOps(txn, List.of());
      if (touches) {
        final List<Op> ops = new ArrayList<>(2);
        for (final Op op : translated.ops()) {
          if (kept.contains(op.key())) {
            ops.add(op);
          }
        }
        out.add(t.withOps(translated, ops));
      } else {
        out.add(translated);
      }
    }
    final Map<String, Phantom> byName = new HashMap<>();
    t.phantoms.values().forEach(p -> byName.put(p.name(), p));
    final Set<String> open = new HashSet<>();
    t.unobservedCommitted.forEach((k, n) -> {
      if (n > 1) {
        open.add(k);
      }
    });
    return new Translated(out.build(), origin, byName, open, registerWrites);
  }

  /** One key with an open order, as {@link #openOrdersFromGraph} translates its ops. */
  private record OpenKey(String key, ListOrders.KeyOrder order, Phantom phantom) {}

  /**
   * {@link #translate} with {@code openOnly} and what the lists' graph found ({@code known}): the
   * same transactions with the same ops, built only from the ops on keys of open orders. An op's
   * translation depends only on the transaction's earlier ops on the same key, and the ops kept are
   * those on a stand-in key or on an open key without one, so the ops on other keys are skipped
   * rather than translated and dropped (in the bench's history 3/4 of the transactions touch an open
   * key, and 1 in 9 keeps an op). The graph applies only when every element of every order has a
   * committed appender, so every element is live ({@link #allLive}): no pass over the appends.
   */
  private static Translated openOrdersFromGraph(final History history, final ListOrders orders,
      final boolean touchingOnly, final OpenAppends known) {
    final RegisterTranslation t = new RegisterTranslation(orders, false, known);
    t.allLive = true;
    t.phantoms(history);
    final Map<String, OpenKey> openKeys = new HashMap<>();
    // the open keys by their numbers (ListOrders.Slot): one array read per op, not a string lookup
    final OpenKey[] bySlot = new OpenKey[orders.slotCount()];
    t.unobservedCommitted.forEach((k, n) -> {
      if (n > 1) {
        final OpenKey open = new OpenKey(k, orders.of(k), t.phantoms.get(k));
        openKeys.put(k, open);
        final ListOrders.Slot slot = orders.slotOf(k);
        if (slot != null) {
          bySlot[slot.id] = open;
        }
      }
    });
    final History.Builder out = History.builder();
    final List<Transaction> txns = history.transactions();
    final List<OpenKey> touched = new ArrayList<>(4);
    final List<OpenKey> written = new ArrayList<>(4);
    for (int index = 0; index < txns.size(); index++) {
      final Transaction txn = txns.get(index);
      final boolean touches = !openKeys.isEmpty()
          && (t.committedTouching != null && txn.status() == TxnStatus.COMMITTED ? t.committedTouching.get(index)
              : t.touchesOpenKey(txn));
      if (!touches) {
        if (!touchingOnly) {
          out.add(t.withOps(txn, List.of()));
        }
        continue;
      }
      touched.clear();
      written.clear();
      final List<Op> ops = new ArrayList<>(2);
      final boolean committed = txn.status() == TxnStatus.COMMITTED;
      final List<Op> txnOps = txn.ops();
      for (int o = 0; o < txnOps.size(); o++) {
        final Op op = txnOps.get(o);
        final ListOrders.Slot slot = orders.slot(index, o);
        if (!committed) {
          // as translate(Transaction, List) does: the key's (empty) order is added to the orders
          // (a committed transaction's keys are there already: its reads' and, by the graph, its appends')
          orders.of(slot);
        }
        final OpenKey k = bySlot[slot.id];
        if (k != null) {
          t.translateOpen(txn, op, k, touched, written, ops);
        }
      }
      if (!touchingOnly || !ops.isEmpty()) {
        out.add(t.withOps(txn, ops)); // openOrdersOnlyTouching drops the seqs
      }
    }
    final Map<String, Phantom> byName = new HashMap<>();
    t.phantoms.values().forEach(p -> byName.put(p.name(), p));
    return new Translated(out.build(), new HashMap<>(16), byName, new HashSet<>(openKeys.keySet()), false);
  }

  /**
   * The kept part of {@link #translate(Transaction, List)} for one op on an open key: its ops on
   * the stand-in key, and its ops on the key itself when the key has no stand-in.
   */
  private void translateOpen(final Transaction t, final Op op, final OpenKey k, final List<OpenKey> touched,
      final List<OpenKey> written, final List<Op> ops) {
    final ListOrders.KeyOrder order = k.order();
    final Phantom p = k.phantom();
    final boolean own = p == null; // the key's own ops are kept only when it has no stand-in
    final boolean broken = !order.duplicates().isEmpty();
    if (op.isRead()) {
      final List<Long> list = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
      if (list == null) {
        if (own) {
          ops.add(op);
        }
        touched.add(k);
      } else if (!broken && order.isPrefix(list)) {
        final Long version = readVersion(order, list.size());
        if (own) {
          ops.add(Op.read(op.key(), version));
        }
        touched.add(k);
        if (p != null && java.util.Objects.equals(version, p.base()) && orders.counted(t)) {
          ops.add(Op.read(p.name(), null));
        }
      }
    } else if (op.isAppend()) {
      final int at = order.position(op.value());
      if (!containsSame(touched, k) && !broken && own) {
        if (at >= 0) {
          ops.add(Op.read(op.key(), base(order, at)));
        } else if (!orders.counted(t) || unobservedCommitted.getOrDefault(op.key(), 0) == 1) {
          ops.add(Op.read(op.key(), base(order, order.order().size())));
        }
      }
      if (p != null && at < 0 && orders.counted(t) && !containsSame(written, k)) {
        ops.add(Op.write(p.name(), op.value()));
      } else {
        if (own) {
          ops.add(Op.write(op.key(), op.value()));
        }
        written.add(k);
      }
      if (p != null && op.value().equals(p.base()) && t.status() != TxnStatus.ABORTED) {
        ops.add(Op.read(p.name(), null));
      }
      touched.add(k);
    } else {
      if (own) {
        ops.add(op);
      }
      touched.add(k);
    }
  }

  /** True when {@code keys} holds {@code k} itself (one OpenKey per key: no record equality, which compares strings). */
  private static boolean containsSame(final List<OpenKey> keys, final OpenKey k) {
    for (int i = 0; i < keys.size(); i++) {
      if (keys.get(i) == k) {
        return true;
      }
    }
    return false;
  }

  /** True when an op of the transaction is on a key with several unobserved committed appends (an open order). */
  private boolean touchesOpenKey(final Transaction txn) {
    final List<Op> ops = txn.ops();
    for (int i = 0; i < ops.size(); i++) {
      final Integer n = unobservedCommitted.get(ops.get(i).key());
      if (n != null && n > 1) {
        return true;
      }
    }
    return false;
  }

  /**
   * A stand-in key for every key with several committed appends no read shows, when some read
   * shows an appended element (with none, the key's own initial version plays that part, and the
   * engine's certain edges from it already order every such append after the readers of the empty
   * list). Its name is the key's with primes added until no key of the history has it.
   */
  private void phantoms(final History history) {
    final Map<String, Long> bases = new java.util.LinkedHashMap<>();
    unobservedCommitted.forEach((k, n) -> {
      final ListOrders.KeyOrder order = orders.of(k);
      final Long base = order.duplicates().isEmpty() ? base(order, order.order().size()) : null;
      if (n > 1 && base != null) {
        bases.put(k, base);
      }
    });
    if (bases.isEmpty()) {
      return;
    }
    final Set<String> keys = orders.historyKeys();
    final Set<String> named = new HashSet<>();
    bases.forEach((k, base) -> {
      String name = k + "'";
      while (keys.contains(name) || named.contains(name)) {
        name += "'";
      }
      named.add(name);
      phantoms.put(k, new Phantom(k, name, base));
    });
  }

  /**
   * The live elements of every key and the counts of unobserved committed appends (unless {@code
   * counted}: given by {@link OpenAppends}); with {@code openOnly}, the live elements of the keys
   * with an open order only ({@link #openOrdersOnly}).
   */
  private void indexAppends(final History history, final boolean openOnly, final boolean counted) {
    if (!counted || !openOnly) {
      countAppends(history, openOnly);
    }
    if (!openOnly) {
      return;
    }
    for (final Transaction t : history.transactions()) {
      if (t.status() == TxnStatus.ABORTED) {
        continue;
      }
      final List<Op> ops = t.ops();
      for (int i = 0; i < ops.size(); i++) {
        final Op op = ops.get(i);
        if (op.isAppend() && unobservedCommitted.getOrDefault(op.key(), 0) > 1) {
          liveElements.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value());
        }
      }
    }
  }

  /** The counts of unobserved committed appends; unless {@code openOnly}, the live elements of every key. */
  private void countAppends(final History history, final boolean openOnly) {
    for (final Transaction t : history.transactions()) {
      final List<Op> ops = t.ops();
      for (int i = 0; i < ops.size(); i++) {
        final Op op = ops.get(i);
        if (op.isAppend()) {
          if (t.status() != TxnStatus.ABORTED && !openOnly) {
            liveElements.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value());
          }
          if (orders.counted(t) && orders.of(op.key()).position(op.value()) < 0) {
            unobservedCommitted.merge(op.key(), 1, Integer::sum);
          }
        }
      }
    }
  }

  /**
   * The transaction with other ops, and committed when it is indeterminate and counted, as {@link
   * #translate(Transaction, List)} makes it.
   */
  private Transaction withOps(final Transaction t, final List<Op> ops) {
    if (t.status() == TxnStatus.UNKNOWN && orders.counted(t)) {
      return new Transaction(t.id(), t.session(), t.seq(), TxnStatus.COMMITTED, t.start(),
          t.end() == Transaction.NO_TIME ? NEVER_ENDED : t.end(), ops, t.tenant(), t.level(), t.line());
    }
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(), t.level(),
        t.line());
  }

  private Transaction translate(final Transaction t, final List<Integer> from) {
    final List<Op> ops = new ArrayList<>(t.ops().size() + 2);
    final Set<String> touched = new HashSet<>();
    final Set<String> written = new HashSet<>(); // keys the transaction wrote as themselves
    for (int index = 0; index < t.ops().size(); index++) {
      final Op op = t.ops().get(index);
      while (from.size() < ops.size()) {
        from.add(index - 1);
      }
      final ListOrders.KeyOrder order = orders.of(op.key());
      final boolean broken = !order.duplicates().isEmpty();
      if (op.isRead()) {
        final List<Long> list = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
        if (list == null) {
          ops.add(op); // a register read in a list-append history: left to the engine as it is
          touched.add(op.key());
        } else if (!broken && order.isPrefix(list)) {
          final Long version = readVersion(order, list.size());
          ops.add(Op.read(op.key(), version));
          touched.add(op.key());
          final Phantom p = phantoms.get(op.key());
          if (p != null && java.util.Objects.equals(version, p.base()) && orders.counted(t)) {
            // Precedes every unobserved append: the initial version (RW to each), or the base's
            // appender's version of the stand-in key (RW to the one after it, the search decides which)
            ops.add(Op.read(p.name(), baseWritten ? p.base() : null));
          }
        }
      } else if (op.isAppend()) {
        if (!touched.contains(op.key()) && !broken) {
          final int at = order.position(op.value());
          if (at >= 0) {
            ops.add(Op.read(op.key(), base(order, at)));
          } else if (!orders.counted(t) || unobservedCommitted.getOrDefault(op.key(), 0) == 1) {
            ops.add(Op.read(op.key(), base(order, order.order().size())));
          }
        }
        final Phantom p = phantoms.get(op.key());
        final boolean unobserved = order.position(op.value()) < 0;
        if (p != null && unobserved && orders.counted(t) && !written.contains(op.key())) {
          // After the base, among the others in an open order; also when the transaction already
          // read the key: its append is still one of them, and the WW edges between it and the
          // others exist only on the stand-in key. When it read the base, its read of the
          // stand-in's base (or initial version) above makes this write follow the base directly,
          // as every order without a cycle puts it (two such appends are a lost update). After
          // its own append of a shown element it stays on the key, so that a read of that element
          // reads an intermediate version (G1b).
          ops.add(Op.write(p.name(), op.value()));
        } else {
          ops.add(Op.write(op.key(), op.value()));
          written.add(op.key());
        }
        if (p != null && op.value().equals(p.base()) && t.status() != TxnStatus.ABORTED) {
          // The base's appender precedes every unobserved append: by RW from the initial version,
          // or (baseWritten) by WW, as the lists give, writing the stand-in key's first version.
          ops.add(Op.read(p.name(), null));
          if (baseWritten) {
            ops.add(Op.write(p.name(), p.base()));
          }
        }
        touched.add(op.key());
      } else {
        ops.add(op);
        touched.add(op.key());
      }
    }
    while (from.size() < ops.size()) {
      from.add(t.ops().size() - 1);
    }
    if (t.status() == TxnStatus.UNKNOWN && orders.counted(t)) {
      // A read shows one of its elements: it took effect. The engine promotes an indeterminate
      // writer only when a read ends at its version, which the lists need not give it, so it is
      // committed here; without an end it still precedes nothing in real time.
      return new Transaction(t.id(), t.session(), t.seq(), TxnStatus.COMMITTED, t.start(),
          t.end() == Transaction.NO_TIME ? NEVER_ENDED : t.end(), ops, t.tenant(), t.level(), t.line());
    }
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(), t.level(),
        t.line());
  }

  /**
   * The version a read of the first {@code length} elements names: its last element a transaction
   * that did not abort appended (thin-air and aborted elements are {@link ListAnomalies}' findings,
   * wherever they are in the list).
   */
  private Long readVersion(final ListOrders.KeyOrder order, final int length) {
    return base(order, length);
  }

  /** The version an append at index {@code at} builds on: the last element before it a live append put there. */
  private Long base(final ListOrders.KeyOrder order, final int at) {
    final List<Long> known = order.order();
    if (at == 0) {
      return null;
    }
    if (allLive) {
      return known.get(at - 1);
    }
    final int[] last = lastLive.computeIfAbsent(order.key(), k -> lastLive(k, known));
    return last[at] < 0 ? null : known.get(last[at]);
  }

  /** For each length n of {@code known}, the index of the last live element before n, or -1. */
  private int[] lastLive(final String key, final List<Long> known) {
    final Set<Long> live = liveElements.getOrDefault(key, Set.of());
    final int[] last = new int[known.size() + 1];
    last[0] = -1;
    for (int i = 0; i < known.size(); i++) {
      last[i + 1] = live.contains(known.get(i)) ? i : last[i];
    }
    return last;
  }
}
