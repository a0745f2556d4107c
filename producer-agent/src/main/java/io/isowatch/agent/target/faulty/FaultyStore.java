package io.isowatch.agent.target.faulty;

import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TxnContext;
import io.isowatch.agent.workload.KeySpace;
import io.isowatch.agent.workload.PlannedOp;
import io.isowatch.agent.workload.TxnPlan;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-memory multi-version key-value store that is strictly serializable by construction, one
 * transaction at a time under a global lock held from begin to commit or rollback, and that
 * injects named anomalies on purpose by serving chosen older (or aborted, or intermediate)
 * values to chosen reads (see {@link FaultKind}).
 *
 * <p>Each fault is injected only where it will show up as its named pattern and nothing shorter:
 * the store knows the whole plan at begin, every committed version, which version each writer
 * read, and (from {@link #recorded}) when each writer's client recorded its end. Plans with a
 * compare-and-set get no fault.
 */
final class FaultyStore {
  /** Writers kept with their read/installed versions; older history is cut so memory stays bounded. */
  private static final int WINDOW = 50_000;
  private static final int MAX_OBSERVATIONS = 10_000;

  // Fair: sessions take turns, as they would on a real server, instead of one thread barging in
  // again and again and running most of the workload alone.
  private final ReentrantLock lock = new ReentrantLock(true);
  private final FaultSpec spec;
  private final SplittableRandom random;
  private final InjectionLog log;
  private final Map<String, Version> current = new HashMap<>();
  private final Map<String, Long> dirty = new HashMap<>();
  private final Map<String, Writer> awaitingEnd = new ConcurrentHashMap<>();
  private final ArrayDeque<Writer> window = new ArrayDeque<>();
  private final Map<String, Observation> observations = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(final Map.Entry<String, Observation> eldest) {
      return size() > MAX_OBSERVATIONS;
    }
  };
  private long commits;

  FaultyStore(final FaultSpec spec, final long seed, final InjectionLog log) {
    this.spec = spec;
    this.random = new SplittableRandom(seed);
    this.log = log;
  }

  /** Per-session state: the commit index its last transaction ran at, and that transaction if it wrote. */
  static final class SessionState {
    final String name;
    long snapshot;
    Writer last;

    SessionState(final String name) {
      this.name = name;
    }
  }

  /** A past correct read of exactly two keys, from which a long fork can be made. */
  private record Observation(String session, Map<String, Version> seen) {}

  /** One open transaction. */
  static final class Txn {
    final TxnContext ctx;
    final TxnPlan plan;
    final SessionState session;
    final Map<String, Version> versionView = new HashMap<>(4);
    final Map<String, Long> valueView = new HashMap<>(4);
    final Map<String, Version> readVersions = new HashMap<>(4);
    final Map<String, List<Long>> writes = new LinkedHashMap<>(4);
    FaultKind injected;
    boolean refuseCommit;

    Txn(final TxnContext ctx, final TxnPlan plan, final SessionState session) {
      this.ctx = ctx;
      this.plan = plan;
      this.session = session;
    }
  }

  void reset(final KeySpace keys) {
    lock.lock();
    try {
      current.clear();
      dirty.clear();
      observations.clear();
      window.clear();
      awaitingEnd.clear();
      commits = 0;
      for (int i = 0; i < keys.size(); i++) {
        current.put(keys.name(i), new Version(0L, Writer.INITIAL, null, null));
      }
    } finally {
      lock.unlock();
    }
  }

  Txn begin(final SessionState session, final TxnContext ctx, final TxnPlan plan) {
    lock.lock();
    try {
      final Txn t = new Txn(ctx, plan, session);
      decide(t);
      return t;
    } catch (final RuntimeException e) {
      lock.unlock();
      throw e;
    }
  }

  Long read(final Txn t, final String key) throws TargetException {
    final List<Long> own = t.writes.get(key);
    if (own != null) {
      return own.get(own.size() - 1);
    }
    final Long forced = t.valueView.get(key);
    if (forced != null) {
      return forced;
    }
    Version v = t.versionView.get(key);
    if (v == null) {
      v = t.readVersions.get(key);
    }
    if (v == null) {
      v = existing(key);
    }
    t.readVersions.putIfAbsent(key, v);
    return v.value;
  }

  void write(final Txn t, final String key, final long value) throws TargetException {
    existing(key);
    t.writes.computeIfAbsent(key, k -> new ArrayList<>(2)).add(value);
  }

  void commit(final Txn t) throws TargetException {
    try {
      if (t.refuseCommit) {
        for (final Map.Entry<String, List<Long>> e : t.writes.entrySet()) {
          dirty.put(e.getKey(), e.getValue().get(e.getValue().size() - 1));
        }
        log.refusedCommit();
        t.session.last = null;
        throw new TargetException(Failure.ABORTED, "injected",
            "serialization failure (refused by the faulty target to create an aborted read)");
      }
      if (t.writes.isEmpty()) {
        commitReadOnly(t);
      } else {
        commitWriter(t);
      }
    } finally {
      lock.unlock();
    }
  }

  void rollback(final Txn t) {
    t.session.last = null;
    lock.unlock();
  }

  /** The client recorded the end of a transaction; a committed writer's end enables stale reads of it. */
  void recorded(final String txnId, final long endMicros) {
    final Writer w = awaitingEnd.remove(txnId);
    if (w != null) {
      w.clientEnd = endMicros;
    }
  }

  private void commitReadOnly(final Txn t) {
    if (t.injected != FaultKind.STALE_READ) {
      t.session.snapshot = commits;
    }
    t.session.last = null;
    if (t.injected == null && t.plan.readOnly() && t.readVersions.size() == 2 && t.valueView.isEmpty()) {
      final List<String> keys = new ArrayList<>(t.readVersions.keySet());
      observations.put(pair(keys.get(0), keys.get(1)), new Observation(t.session.name, Map.copyOf(t.readVersions)));
    }
  }

  private void commitWriter(final Txn t) {
    commits++;
    final Writer w = new Writer(t.ctx.txnId(), t.session.name, commits);
    w.read.putAll(t.readVersions);
    for (final Map.Entry<String, List<Long>> e : t.writes.entrySet()) {
      final List<Long> values = e.getValue();
      final Long intermediate = values.size() >= 2 ? values.get(values.size() - 2) : null;
      final Version prev = t.readVersions.getOrDefault(e.getKey(), current.get(e.getKey()));
      final Version v = new Version(values.get(values.size() - 1), w, prev, intermediate);
      current.put(e.getKey(), v);
      w.installed.put(e.getKey(), v);
    }
    t.session.snapshot = commits;
    t.session.last = w;
    awaitingEnd.put(w.txnId, w);
    window.addLast(w);
    if (window.size() > WINDOW) {
      final Writer old = window.removeFirst();
      for (final Version v : old.installed.values()) {
        v.prev = null;
      }
      old.installed.clear();
      old.read.clear();
      awaitingEnd.remove(old.txnId);
    }
  }

  private Version existing(final String key) throws TargetException {
    final Version v = current.get(key);
    if (v == null) {
      throw new TargetException(Failure.ERROR, "key", "unknown key " + key + ": was the key space prepared?");
    }
    return v;
  }

  // ---- choosing a fault -------------------------------------------------------------------

  private void decide(final Txn t) {
    if (t.plan.ops().stream().anyMatch(op -> op instanceof PlannedOp.Cas)) {
      return;
    }
    final List<String> reads = t.plan.readKeys();
    final Set<String> writes = t.plan.writeKeys();
    if (spec.enabled(FaultKind.ABORTED_READ)) {
      for (final String k : reads) {
        final Long v = writes.contains(k) ? null : dirty.remove(k);
        if (v != null) {
          t.valueView.put(k, v);
        }
      }
      if (!t.valueView.isEmpty()) {
        inject(t, FaultKind.ABORTED_READ);
        return;
      }
    }
    final List<FaultKind> kinds = new ArrayList<>();
    for (final FaultKind k : FaultKind.values()) {
      if (k != FaultKind.ABORTED_READ && spec.enabled(k)) {
        kinds.add(k);
      }
    }
    // A random order, so that no kind shadows another when several are possible.
    for (int i = kinds.size() - 1; i > 0; i--) {
      final int j = random.nextInt(i + 1);
      final FaultKind tmp = kinds.get(i);
      kinds.set(i, kinds.get(j));
      kinds.set(j, tmp);
    }
    for (final FaultKind k : kinds) {
      if (tryFault(k, t, reads, writes)) {
        inject(t, k);
        return;
      }
    }
    if (spec.enabled(FaultKind.ABORTED_READ) && !writes.isEmpty() && roll(FaultKind.ABORTED_READ)) {
      t.refuseCommit = true;
    }
  }

  private boolean tryFault(final FaultKind k, final Txn t, final List<String> reads, final Set<String> writes) {
    return switch (k) {
      case LOST_UPDATE -> lostUpdate(t, reads, writes);
      case STALE_READ -> staleRead(t, reads);
      case INTERMEDIATE_READ -> intermediateRead(t, reads, writes);
      case FRACTURED_READ -> fracturedRead(t, reads);
      case LONG_FORK -> longFork(t, reads);
      case CAUSALITY_VIOLATION -> causality(t, reads);
      case SESSION_VIOLATION -> sessionViolation(t, reads, writes);
      case ABORTED_READ -> false;
    };
  }

  private void inject(final Txn t, final FaultKind k) {
    t.injected = k;
    log.injected(k, t.ctx.txnId());
  }

  private boolean roll(final FaultKind k) {
    return random.nextDouble() < spec.rate(k);
  }

  /** Reads the parent of the latest version of a key it then writes: two writers of one version. */
  private boolean lostUpdate(final Txn t, final List<String> reads, final Set<String> writes) {
    for (final String k : reads) {
      final Version cur = current.get(k);
      if (writes.contains(k) && cur != null && !cur.writer.initial() && cur.prev != null) {
        if (!roll(FaultKind.LOST_UPDATE)) {
          return false;
        }
        t.versionView.put(k, cur.prev);
        return true;
      }
    }
    return false;
  }

  /**
   * Reads everything at the session's last snapshot S (so SER still holds: the reader fits at S)
   * when some key it reads was overwritten after S by another session's writer whose client had
   * recorded its end before this transaction's recorded start (so SSER does not: real time).
   */
  private boolean staleRead(final Txn t, final List<String> reads) {
    if (!t.plan.readOnly()) {
      return false;
    }
    final long s = t.session.snapshot;
    final Map<String, Version> view = new HashMap<>();
    boolean realTime = false;
    for (final String k : reads) {
      final Version cur = current.get(k);
      if (cur == null) {
        return false;
      }
      Version at = cur;
      while (at != null && at.writer.commitIndex > s) {
        at = at.prev;
      }
      if (at == null) {
        return false;
      }
      view.put(k, at);
      if (at != cur) {
        final Version next = at.successorOn(cur);
        realTime |= next != null && next.writer.clientEnd < t.ctx.startMicros()
            && !next.writer.session.equals(t.session.name);
      }
    }
    if (!realTime || !roll(FaultKind.STALE_READ)) {
      return false;
    }
    t.versionView.putAll(view);
    return true;
  }

  private boolean intermediateRead(final Txn t, final List<String> reads, final Set<String> writes) {
    for (final String k : reads) {
      final Version cur = current.get(k);
      if (!writes.contains(k) && cur != null && cur.intermediate != null) {
        if (!roll(FaultKind.INTERMEDIATE_READ)) {
          return false;
        }
        t.valueView.put(k, cur.intermediate);
        return true;
      }
    }
    return false;
  }

  /** First read key a, second b: b from its latest writer W, a from before W although W wrote a. */
  private boolean fracturedRead(final Txn t, final List<String> reads) {
    if (!t.plan.readOnly() || reads.size() < 2) {
      return false;
    }
    final String a = reads.get(0);
    final Version vb = current.get(reads.get(1));
    if (vb == null || vb.writer.initial()) {
      return false;
    }
    final Version va = vb.writer.installed.get(a);
    if (va == null || va.prev == null || !roll(FaultKind.FRACTURED_READ)) {
      return false;
    }
    t.versionView.put(a, va.prev);
    return true;
  }

  /**
   * An earlier reader T3 of the same two keys saw T1's x and a version of y that T2 later
   * overwrote; this reader sees T2's y and the x before T1. Needs T3 in another session.
   */
  private boolean longFork(final Txn t, final List<String> reads) {
    if (!t.plan.readOnly() || reads.size() != 2) {
      return false;
    }
    final String pairKey = pair(reads.get(0), reads.get(1));
    final Observation o = observations.get(pairKey);
    if (o == null || o.session().equals(t.session.name)) {
      return false;
    }
    final int first = random.nextInt(2);
    for (int i = 0; i < 2; i++) {
      final String x = reads.get((first + i) % 2);
      final String y = reads.get((first + i + 1) % 2);
      final Version vx3 = o.seen().get(x);
      final Version vy3 = o.seen().get(y);
      if (vx3 == null || vy3 == null || vx3.writer.initial() || vx3.prev == null) {
        continue;
      }
      final Version nextY = vy3.successorOn(current.get(y));
      if (nextY == null) {
        continue;
      }
      final Writer t1 = vx3.writer;
      final Writer t2 = nextY.writer;
      if (t1 == t2 || t1.installed.containsKey(y) || t2.installed.containsKey(x)) {
        continue;
      }
      if (!roll(FaultKind.LONG_FORK)) {
        return false;
      }
      t.versionView.put(x, vx3.prev);
      t.versionView.put(y, nextY);
      observations.remove(pairKey);
      return true;
    }
    return false;
  }

  /**
   * T2, the latest writer of y, read x from T1; this reader sees T2's y but the x before T1. The
   * cycle T -RW-> T1 -WR-> T2 -WR-> T is then the shortest through T2's edge into the reader,
   * whatever else the reader's session saw. T1 must not be in the reader's session (that would be
   * a session violation first).
   */
  private boolean causality(final Txn t, final List<String> reads) {
    if (!t.plan.readOnly() || reads.size() != 2) {
      return false;
    }
    final int first = random.nextInt(2);
    for (int i = 0; i < 2; i++) {
      final String x = reads.get((first + i) % 2);
      final String y = reads.get((first + i + 1) % 2);
      final Version vy = current.get(y);
      if (vy == null || vy.writer.initial()) {
        continue;
      }
      final Writer t2 = vy.writer;
      final Version vx = t2.read.get(x);
      if (vx == null || vx.writer.initial() || vx.prev == null) {
        continue;
      }
      final Writer t1 = vx.writer;
      if (t1 == t2 || t2.installed.containsKey(x) || t1.installed.containsKey(y)
          || t1.session.equals(t.session.name)) {
        continue;
      }
      if (!roll(FaultKind.CAUSALITY_VIOLATION)) {
        return false;
      }
      t.versionView.put(x, vx.prev);
      return true;
    }
    return false;
  }

  /** Misses every write of its session's previous transaction P on the keys it reads. */
  private boolean sessionViolation(final Txn t, final List<String> reads, final Set<String> writes) {
    final Writer p = t.session.last;
    if (p == null) {
      return false;
    }
    final Map<String, Version> view = new HashMap<>();
    for (final String k : reads) {
      final Version byP = p.installed.get(k);
      if (byP == null) {
        continue;
      }
      if (writes.contains(k) || byP.prev == null) {
        return false;
      }
      view.put(k, byP.prev);
    }
    if (view.isEmpty() || !roll(FaultKind.SESSION_VIOLATION)) {
      return false;
    }
    t.versionView.putAll(view);
    return true;
  }

  private static String pair(final String a, final String b) {
    return a.compareTo(b) < 0 ? a + "\u0000" + b : b + "\u0000" + a;
  }
}
