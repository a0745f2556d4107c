package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.listappend.ListAppendCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The streaming checker of a list-append tenant (docs/list-append.md, "Online"). A key's version
 * order is the longest list read so far, which a later, longer read extends, so this engine keeps
 * the tenant's whole history and checks it again with {@link ListAppendCheck} (the engine of
 * {@code isowatch check}) as it grows, publishing only what no later arrival can undo:
 *
 * <ul>
 *   <li>It checks the <b>ready</b> transactions: those whose every read element has an appender
 *       that is itself ready (a greatest fixpoint). A read whose appender has not arrived waits, as
 *       a register read waits for its writer, so no ThinAirRead is published before a flush.
 *   <li>Of that check's anomalies it publishes those whose every dependency edge is fixed by the
 *       lists read so far. An anomaly with an edge into (or out of) an append that no committed read
 *       shows yet is <b>withheld</b>: the check places such an append right after the latest version
 *       a read shows, and a later read may put other elements in between, so the edge would stand for
 *       a path. Such an anomaly is published once a read shows the append (or at a flush, below).
 *       Every other edge only gains intermediate versions as lists grow, never changes: an anomaly
 *       published from the ready transactions stays an anomaly of every later history.
 *   <li>The verdicts are those of the check of the ready transactions (the withheld anomalies' levels
 *       included: any extension of the lists keeps each such cycle as a cycle of paths of the same
 *       kinds), and a level once VIOLATED by a published anomaly stays so.
 *   <li>{@link #flush()} ends the input for now, as {@code isowatch check} ends a file: it checks
 *       every transaction and publishes every anomaly of that check. Those that rested on an absence
 *       (a read whose appender had not arrived, an append no read showed) are provisional: when a later
 *       check of the whole history no longer finds one, it is retracted ({@link
 *       OnlineEvent.AnomalyRetracted}), as a register ThinAirRead is when its writer arrives late.
 * </ul>
 *
 * <p>Checks run when the transactions arrived since the last one reach an eighth of those that had
 * arrived then ({@link #RECHECK_FRACTION}), and at every flush: the sizes checked grow
 * geometrically, so the total work is about nine checks of the final history (twice that while a
 * provisional anomaly stands), and an anomaly waits at most that many arrivals (or the next idle
 * flush). The history is kept whole: a list-append tenant has no horizon (see {@code
 * check --horizon}, which refuses list-append histories for the same reason).
 *
 * <p>The transactions are checked in a canonical order (end time, start time, session, seq, id),
 * so the result does not depend on the arrival order; session order comes from seq when every
 * transaction of a session has one, from that canonical order otherwise, as in {@link
 * WholeHistoryCheck}. A transaction arriving again with the same content is ignored; with other
 * content it is kept, and the check reports it as DUPLICATE_TXN_ID.
 */
public final class ListAppendOnlineChecker {
  /** A check runs once the arrivals since the last one reach this fraction of what it checked. */
  public static final int RECHECK_FRACTION = 8;

  private static final Comparator<Transaction> CANONICAL = Comparator
      .comparingLong((Transaction t) -> t.end() == Transaction.NO_TIME ? Long.MAX_VALUE : t.end())
      .thenComparingLong(t -> t.start() == Transaction.NO_TIME ? Long.MAX_VALUE : t.start())
      .thenComparing(Transaction::session)
      .thenComparingLong(Transaction::seq)
      .thenComparing(Transaction::id);

  private final CheckOptions options;
  /** Every distinct transaction taken (a retry with the same content is ignored). */
  private final Set<Transaction> seen = new HashSet<>();
  private final List<Transaction> arrived = new ArrayList<>();
  /** Published anomalies by {@link #identity(Anomaly)}, in publication order; retracted ones removed. */
  private final Map<List<Object>, Anomaly> standing = new LinkedHashMap<>();
  /** Identities of standing anomalies published by a flush that rested on an absence. */
  private final Set<List<Object>> provisional = new HashSet<>();
  private final Map<Level, Verdict> publishedVerdicts = new EnumMap<>(Level.class);
  private CheckResult last;
  private int checkedSize;
  private int sinceCheck;
  private String lastArrival;
  /** Anomalies the last check withheld (see the class comment). */
  private int withheld;

  public ListAppendOnlineChecker(final CheckOptions options) {
    this.options = options;
    for (final Level l : options.levels()) {
      publishedVerdicts.put(l, Verdict.SATISFIED);
    }
    this.last = ListAppendCheck.check(new History(List.of()), options);
  }

  /**
   * Why the segmented engine ({@link OnlineChecker}: {@code check --horizon…}, and a register
   * tenant of the topology) refuses a list-append transaction: it keeps bounded state, and a
   * list-append history has none that suffices (docs/list-append.md, "Segmented").
   */
  public static String refusedBySegmentedEngine(final Transaction t) {
    return "transaction " + t.id() + " has list-append operations, which the segmented check does not decide: it "
        + "keeps bounded state, and every read of a list returns the whole list, so checking it (an aborted or "
        + "repeated element anywhere in it, a prefix of every other read of the key) needs every element ever "
        + "appended to the key; check the whole history with isowatch check, without a horizon, or stream it with "
        + "isowatch run, which checks a list-append tenant whole (docs/list-append.md)";
  }

  /** Takes one arriving transaction; returns what was published. */
  public List<OnlineEvent> accept(final Transaction t) {
    if (!seen.add(t)) {
      return List.of(); // a retry of a transaction already taken, same content
    }
    arrived.add(t);
    lastArrival = t.id();
    sinceCheck++;
    // Against what had arrived at the last check (not what it checked), so that reads waiting for
    // their appenders do not make every arrival a check.
    if (sinceCheck < Math.max(1, (arrived.size() - sinceCheck) / RECHECK_FRACTION)) {
      return List.of();
    }
    return evaluate(false);
  }

  /** Checks every transaction now and publishes all its anomalies (see the class comment). */
  public List<OnlineEvent> flush() {
    return evaluate(true);
  }

  /** Transactions kept (the whole history). */
  public long retained() {
    return arrived.size();
  }

  /** Transactions not checked yet: waiting for an appender of an element they read, or for the next check. */
  public long pending() {
    return arrived.size() - checkedSize;
  }

  /**
   * What a {@link #flush()} would decide now: the transactions not checked yet, or 1 when all were
   * but the last check withheld an anomaly; 0 when a flush would change nothing (the topology
   * flushes an idle tenant only then).
   */
  public long awaitingFlush() {
    final long pending = pending();
    return pending > 0 ? pending : withheld > 0 ? 1 : 0;
  }

  /**
   * The result of the last check, with every standing published anomaly (an anomaly published
   * from fewer transactions may be found through another cycle by a later check: it stays listed).
   */
  public CheckResult result() {
    final List<Anomaly> anomalies = new ArrayList<>(last.anomalies());
    final Set<List<Object>> listed = new HashSet<>();
    for (final Anomaly a : anomalies) {
      listed.add(identity(a));
    }
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    verdicts.putAll(last.verdicts());
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(last.reasons());
    final Map<String, Long> byName = new LinkedHashMap<>(last.stats().anomaliesByName());
    for (final Map.Entry<List<Object>, Anomaly> e : standing.entrySet()) {
      if (listed.add(e.getKey())) {
        final Anomaly a = e.getValue();
        anomalies.add(a);
        byName.merge(a.displayName(), 1L, Long::sum);
        for (final Level l : a.violates()) {
          if (verdicts.containsKey(l)) {
            verdicts.put(l, Verdict.VIOLATED);
            reasons.remove(l);
          }
        }
      }
    }
    return new CheckResult(verdicts, reasons, anomalies, last.findings(),
        last.stats().withAnomalies(byName, last.stats().anomaliesTruncated()));
  }

  private List<OnlineEvent> evaluate(final boolean everything) {
    sinceCheck = 0;
    final List<OnlineEvent> events = new ArrayList<>();
    withheld = 0;
    final Set<String> ready = ready();
    final List<Transaction> all = canonical(arrived, null);
    final List<Transaction> checked = everything ? all : canonical(arrived, ready);
    final CheckResult result = ListAppendCheck.check(new History(checked), options);
    final Map<String, Set<Long>> shown = shownElements(checked);
    final Map<String, Map<String, Set<Long>>> appends = appendsByTxn(checked);
    for (final Anomaly a : result.anomalies()) {
      final List<Object> id = identity(a);
      if (standing.containsKey(id)) {
        if (!everything && provisional.contains(id) && firm(a, ready, shown, appends)) {
          provisional.remove(id);
        }
        continue;
      }
      final boolean firm = firm(a, ready, shown, appends);
      if (!firm && !everything) {
        withheld++;
        continue; // withheld until a read shows the append it rests on, or a flush
      }
      standing.put(id, a);
      if (!firm) {
        provisional.add(id);
      }
      events.add(new OnlineEvent.AnomalyPublished(a));
    }
    if (!provisional.isEmpty()) {
      final CheckResult whole = everything ? result : ListAppendCheck.check(new History(all), options);
      if (!whole.stats().anomaliesTruncated()) { // a truncated list proves no absence
        retractUnproven(whole, events);
      }
    }
    last = result;
    checkedSize = checked.size();
    final CheckResult now = result();
    for (final Level l : Level.strongestFirst(publishedVerdicts.keySet())) {
      final Verdict v = now.verdicts().getOrDefault(l, Verdict.UNKNOWN);
      final Verdict before = publishedVerdicts.put(l, v);
      if (before != v) {
        events.add(new OnlineEvent.VerdictChanged(l, before, v, v == Verdict.UNKNOWN ? now.reasons().get(l) : null));
      }
    }
    return events;
  }

  /** Retracts each provisional anomaly the check of the whole history no longer finds. */
  private void retractUnproven(final CheckResult whole, final List<OnlineEvent> events) {
    final Set<List<Object>> found = new HashSet<>();
    for (final Anomaly a : whole.anomalies()) {
      found.add(identity(a));
    }
    for (final List<Object> id : List.copyOf(provisional)) {
      if (!found.contains(id)) {
        provisional.remove(id);
        final Anomaly a = standing.remove(id);
        events.add(new OnlineEvent.AnomalyRetracted(a, lastArrival, "published at a flush while it rested on an "
            + "absence (a read whose appender had not arrived, or an append no read showed); transactions that arrived "
            + "since change the lists, and the whole history no longer shows it (docs/list-append.md, \"Online\")"));
      }
    }
  }

  /**
   * True when the anomaly stands whatever arrives later: its transactions are all ready, and none of
   * its dependency edges enters or leaves an append on the edge's key that no committed read shows.
   */
  private static boolean firm(final Anomaly a, final Set<String> ready, final Map<String, Set<Long>> shown,
      final Map<String, Map<String, Set<Long>>> appends) {
    for (final Transaction t : a.transactions()) {
      if (!ready.contains(t.id())) {
        return false;
      }
    }
    for (final Edge e : a.cycle()) {
      if (e.kind() == EdgeKind.SO || e.kind() == EdgeKind.RT || e.key() == null) {
        continue;
      }
      if (unshownAppend(e.from(), e.key(), shown, appends) || unshownAppend(e.to(), e.key(), shown, appends)) {
        return false;
      }
    }
    return true;
  }

  private static boolean unshownAppend(final String txn, final String key, final Map<String, Set<Long>> shown,
      final Map<String, Map<String, Set<Long>>> appends) {
    final Set<Long> elements = appends.getOrDefault(txn, Map.of()).get(key);
    if (elements == null) {
      return false;
    }
    final Set<Long> seen = shown.getOrDefault(key, Set.of());
    for (final Long v : elements) {
      if (!seen.contains(v)) {
        return true;
      }
    }
    return false;
  }

  /** Per key, the elements some committed read of these transactions shows. */
  private static Map<String, Set<Long>> shownElements(final List<Transaction> txns) {
    final Map<String, Set<Long>> shown = new HashMap<>();
    for (final Transaction t : txns) {
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      for (final Op op : t.ops()) {
        if (op.isListRead() && op.elements() != null) {
          shown.computeIfAbsent(op.key(), k -> new HashSet<>()).addAll(op.elements());
        }
      }
    }
    return shown;
  }

  /** Per transaction id, its appended elements by key. */
  private static Map<String, Map<String, Set<Long>>> appendsByTxn(final List<Transaction> txns) {
    final Map<String, Map<String, Set<Long>>> appends = new HashMap<>();
    for (final Transaction t : txns) {
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          appends.computeIfAbsent(t.id(), k -> new HashMap<>())
              .computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value());
        }
      }
    }
    return appends;
  }

  /**
   * The ids of the ready transactions: the largest set in which every element a transaction read
   * was appended by a transaction of the set.
   */
  private Set<String> ready() {
    final Map<String, Map<Long, List<String>>> appenders = new HashMap<>();
    for (final Transaction t : arrived) {
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          appenders.computeIfAbsent(op.key(), k -> new HashMap<>())
              .computeIfAbsent(op.value(), v -> new ArrayList<>()).add(t.id());
        }
      }
    }
    final Set<String> ready = new HashSet<>();
    for (final Transaction t : arrived) {
      ready.add(t.id());
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (final Transaction t : arrived) {
        if (ready.contains(t.id()) && !readsReady(t, appenders, ready)) {
          ready.remove(t.id());
          changed = true;
        }
      }
    }
    return ready;
  }

  private static boolean readsReady(final Transaction t, final Map<String, Map<Long, List<String>>> appenders,
      final Set<String> ready) {
    for (final Op op : t.ops()) {
      if (!op.isListRead() || op.elements() == null) {
        continue;
      }
      final Map<Long, List<String>> byElement = appenders.getOrDefault(op.key(), Map.of());
      for (final Long v : op.elements()) {
        final List<String> by = byElement.get(v);
        if (by == null || by.stream().noneMatch(id -> id.equals(t.id()) || ready.contains(id))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The history in the order this engine checks it (see the class comment): what a stream of it
   * reports after a flush is what {@code isowatch check} reports on this order. Which of several
   * equivalent anomalies check names (e.g. which pair of reads shows an incompatible order) may
   * depend on a file's order; its verdicts do not.
   */
  public static History canonical(final History history) {
    return new History(canonical(history.transactions(), null));
  }

  /** The transactions (of {@code only}, when not null) in the canonical order. */
  private static List<Transaction> canonical(final List<Transaction> txns, final Set<String> only) {
    final List<Transaction> out = new ArrayList<>(txns.size());
    for (final Transaction t : txns) {
      if (only == null || only.contains(t.id())) {
        out.add(t);
      }
    }
    out.sort(CANONICAL);
    return out;
  }

  /**
   * What makes two reports the same anomaly: its kind, name, transactions and cycle (the
   * explanation's wording may change as the lists grow, e.g. the note on the latest version a read
   * shows).
   */
  private static List<Object> identity(final Anomaly a) {
    return java.util.Arrays.asList(a.type(), a.name(), a.txnIds(), a.cycle(), a.read());
  }
}
