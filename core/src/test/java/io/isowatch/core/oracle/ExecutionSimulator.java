package io.isowatch.core.oracle;

import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Runs planned transactions against a toy multi-version store under one {@link
 * RandomHistories.Mode}, filling in the values read and written, the status and the times.
 *
 * <p>Sessions run their transactions one after another; the steps of different sessions (begin,
 * each op, end) are interleaved at random, and a step's time is its position in that interleaving
 * times ten microseconds. Only a transaction's last write of a key is ever installed.
 */
final class ExecutionSimulator {
  private static final long TICK_MICROS = 10L;

  private final Random rnd;
  private final RandomHistories.Mode mode;
  private final ValueSource values;
  private final double abortP;
  private final double unknownP;
  private final Map<String, List<Version>> store = new HashMap<>();
  private final Map<TxnDraft, Long> snapshot = new HashMap<>();
  private final Map<String, Long> sessionFloor = new HashMap<>();
  private final Long initial;

  /** One installed version of a key. */
  private record Version(Long value, String writer, long time) {}

  /** One step of a transaction: 0 is begin, 1..n are its ops, n+1 is its end. */
  private record Step(TxnDraft txn, int index) {}

  ExecutionSimulator(
      final Random rnd,
      final RandomHistories.Mode mode,
      final Long initial,
      final ValueSource values,
      final double abortP,
      final double unknownP) {
    this.rnd = rnd;
    this.mode = mode;
    this.initial = initial;
    this.values = values;
    this.abortP = abortP;
    this.unknownP = unknownP;
  }

  void run(final List<TxnDraft> txns) {
    final List<Step> schedule = interleave(txns);
    for (int e = 0; e < schedule.size(); e++) {
      final long now = (e + 1) * TICK_MICROS;
      final Step step = schedule.get(e);
      final TxnDraft t = step.txn();
      if (step.index() == 0) {
        t.start = now;
        snapshot.put(t, now);
      } else if (step.index() <= t.size()) {
        if (mode.eventLevel()) {
          execute(t, step.index() - 1, now);
        }
      } else {
        t.end = now;
        if (mode == RandomHistories.Mode.SERIAL) {
          executeAtomically(t, now);
        } else if (mode == RandomHistories.Mode.FOLLOWER_READS) {
          // Read-only transactions read a consistent but possibly stale state, never older than
          // their own session's last transaction (so mostly serializable, often not strictly).
          final long stale = Math.max(t.start - TICK_MICROS * rnd.nextInt(12), sessionFloor.getOrDefault(t.session, 0L));
          executeAtomically(t, isReadOnly(t) ? stale : now);
        }
        if (mode != RandomHistories.Mode.VIRTUAL_SERIAL) {
          finish(t, now);
        }
      }
    }
    if (mode == RandomHistories.Mode.VIRTUAL_SERIAL) {
      // A serial execution in an order unrelated to real time: serializable, rarely strict.
      final boolean keepSessions = rnd.nextDouble() < 0.9;
      long virtualTime = 1;
      for (final TxnDraft t : virtualOrder(txns, keepSessions)) {
        executeAtomically(t, virtualTime);
        finish(t, virtualTime);
        virtualTime++;
      }
    }
  }

  private List<Step> interleave(final List<TxnDraft> txns) {
    final Map<String, List<Step>> pending = new LinkedHashMap<>();
    for (final TxnDraft t : txns) {
      for (int i = 0; i <= t.size() + 1; i++) {
        pending.computeIfAbsent(t.session, s -> new ArrayList<>()).add(new Step(t, i));
      }
    }
    final List<Step> schedule = new ArrayList<>();
    final List<List<Step>> queues = new ArrayList<>(pending.values());
    while (!queues.isEmpty()) {
      final int q = rnd.nextInt(queues.size());
      schedule.add(queues.get(q).remove(0));
      if (queues.get(q).isEmpty()) {
        queues.remove(q);
      }
    }
    return schedule;
  }

  private List<TxnDraft> virtualOrder(final List<TxnDraft> txns, final boolean keepSessions) {
    final List<TxnDraft> out = new ArrayList<>();
    if (!keepSessions) {
      final List<TxnDraft> all = new ArrayList<>(txns);
      while (!all.isEmpty()) {
        out.add(all.remove(rnd.nextInt(all.size())));
      }
      return out;
    }
    final Map<String, List<TxnDraft>> bySession = new LinkedHashMap<>();
    txns.forEach(t -> bySession.computeIfAbsent(t.session, s -> new ArrayList<>()).add(t));
    final List<List<TxnDraft>> queues = new ArrayList<>(bySession.values());
    while (!queues.isEmpty()) {
      final int q = rnd.nextInt(queues.size());
      out.add(queues.get(q).remove(0));
      if (queues.get(q).isEmpty()) {
        queues.remove(q);
      }
    }
    return out;
  }

  private static boolean isReadOnly(final TxnDraft t) {
    for (int i = 0; i < t.size(); i++) {
      if (t.isWrite(i)) {
        return false;
      }
    }
    return true;
  }

  private void executeAtomically(final TxnDraft t, final long now) {
    for (int i = 0; i < t.size(); i++) {
      execute(t, i, now);
    }
  }

  private void execute(final TxnDraft t, final int i, final long now) {
    final String key = t.keys.get(i);
    if (t.isWrite(i)) {
      t.values.set(i, values.next(key, t.id));
      return;
    }
    if (t.writtenBefore(i)) {
      t.values.set(i, t.ownWriteBefore(i));
      return;
    }
    final int earlier = earlierRead(t, i);
    if (earlier >= 0 && rnd.nextDouble() < 0.7) {
      // Repeated reads mostly agree even under weak modes; when they do not, Int is violated.
      t.values.set(i, t.values.get(earlier));
      return;
    }
    t.values.set(i, chooseVersion(key, t, now).value());
  }

  /** The index of an earlier read of the same key, or -1. */
  private static int earlierRead(final TxnDraft t, final int i) {
    for (int j = 0; j < i; j++) {
      if (t.isRead(j) && t.keys.get(j).equals(t.keys.get(i))) {
        return j;
      }
    }
    return -1;
  }

  private Version chooseVersion(final String key, final TxnDraft t, final long now) {
    final List<Version> versions = versions(key);
    return switch (mode) {
      case SERIAL, VIRTUAL_SERIAL -> versions.get(versions.size() - 1);
      case FOLLOWER_READS -> latestBefore(versions, now);
      case SNAPSHOT -> latestBefore(versions, snapshot.get(t));
      case READ_COMMITTED -> latestBefore(versions, now);
      case STALE -> {
        final List<Version> visible = versions.stream().filter(v -> v.time() < now).toList();
        yield rnd.nextBoolean() ? visible.get(visible.size() - 1) : visible.get(rnd.nextInt(visible.size()));
      }
    };
  }

  private static Version latestBefore(final List<Version> versions, final long time) {
    Version best = versions.get(0);
    for (final Version v : versions) {
      if (v.time() < time) {
        best = v;
      }
    }
    return best;
  }

  private List<Version> versions(final String key) {
    return store.computeIfAbsent(key, k -> new ArrayList<>(List.of(new Version(initial, "T0", -1))));
  }

  private void finish(final TxnDraft t, final long now) {
    sessionFloor.put(t.session, now + 1);
    final double p = rnd.nextDouble();
    if (mode == RandomHistories.Mode.SNAPSHOT && hasWriteConflict(t) && rnd.nextDouble() < 0.85) {
      // First committer wins, except for the occasional buggy commit that loses an update.
      t.status = TxnStatus.ABORTED;
    } else if (p < abortP) {
      t.status = TxnStatus.ABORTED;
    } else if (p < abortP + unknownP) {
      t.status = TxnStatus.UNKNOWN;
      t.installed = rnd.nextBoolean();
    } else {
      t.status = TxnStatus.COMMITTED;
      t.installed = true;
    }
    if (t.installed) {
      final Map<String, Long> last = new LinkedHashMap<>();
      for (int i = 0; i < t.size(); i++) {
        if (t.isWrite(i)) {
          last.put(t.keys.get(i), t.values.get(i));
        }
      }
      last.forEach((k, v) -> versions(k).add(new Version(v, t.id, now)));
    }
  }

  private boolean hasWriteConflict(final TxnDraft t) {
    final long since = snapshot.get(t);
    for (int i = 0; i < t.size(); i++) {
      if (t.isWrite(i)) {
        for (final Version v : versions(t.keys.get(i))) {
          if (v.time() > since && !Objects.equals(v.writer(), t.id)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
