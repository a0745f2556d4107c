package io.isowatch.core.listappend;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.debug.DebugTimings;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.solve.BlindWriteDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a list-append history (docs/list-append.md): reads the version orders off the lists,
 * reports what only lists show ({@link ListAnomalies}), and decides the levels by giving the
 * {@link RegisterTranslation} to the same engine as every history ({@link WholeHistoryCheck}),
 * with keys starting absent (the empty list). The engine's anomalies come back with the original
 * transactions and ops, so reports show appends and lists as the input has them.
 */
public final class ListAppendCheck {
  static final String LEGEND = "\n(List-append: k=[...] is the version of k that list shows, k=[] the empty list; "
      + "an append of v builds on the version before v. docs/list-append.md)";

  private ListAppendCheck() {}

  /** True when the history has an append or a list-valued read: then it is checked as list-append. */
  public static boolean isListAppend(final History history) {
    for (final Transaction t : history.transactions()) {
      if (isListAppend(t)) {
        return true;
      }
    }
    return false;
  }

  /** True when the transaction has an append or a list-valued read. */
  public static boolean isListAppend(final Transaction t) {
    for (final Op op : t.ops()) {
      if (op.isAppend() || op.isListRead()) {
        return true;
      }
    }
    return false;
  }

  /** The result of checking a list-append history. */
  public static CheckResult check(final History history, final CheckOptions options) {
    return check(history, options, true);
  }

  /**
   * As {@link #check(History, CheckOptions)}; with {@code onListGraph} false the levels are always
   * decided by the engine on the whole translation, never on the lists' graph ({@code
   * ListAppendFastPathTest} compares the two).
   */
  static CheckResult check(final History history, final CheckOptions options, final boolean onListGraph) {
    final long started = System.nanoTime();
    final ListOrders orders = ListOrders.of(history);
    DebugTimings.mark("list-append: orders");
    final boolean classic = onListGraph && options.levels().stream().anyMatch(Level.CLASSIC::contains);
    List<Anomaly> lists = classic ? ListAnomalies.of(history, orders, options) : null;
    DebugTimings.mark("list-append: list anomalies");
    final Decided fast = classic && lists.isEmpty() ? onListGraph(history, orders, options) : null;
    DebugTimings.mark("list-append: levels on the lists' graph tried");
    final RegisterTranslation.Translated translated = fast != null ? fast.translated()
        : RegisterTranslation.translate(history, orders);
    if (lists == null) {
      lists = ListAnomalies.of(history, orders, options);
    }
    final CheckResult engine = fast != null ? fast.result() : decide(translated, options.withInitialValue(null));
    final ExactSi exactSi = fast != null ? null : snapshotIsolation(history, orders, translated, engine, options);
    // The transactions by id, to tell the engine's anomalies with the original ops: only when it has some.
    final boolean retold = !engine.anomalies().isEmpty() || exactSi != null;
    final Map<String, Transaction> originals = retold ? new HashMap<>(history.size() * 2) : Map.of();
    long operations = 0;
    for (final Transaction t : history.transactions()) {
      if (retold) {
        originals.putIfAbsent(t.id(), t);
      }
      operations += t.ops().size();
    }
    final List<Anomaly> all = new ArrayList<>(lists);
    final Map<String, Long> dropped = new HashMap<>();
    final Map<String, Long> renamed = new LinkedHashMap<>();
    if (!engine.anomalies().isEmpty()) {
      final Map<String, String> described = described(history, translated.history());
      final BaseAppenders bases = new BaseAppenders(originals, translated);
      for (final Anomaly a : engine.anomalies()) {
        final Anomaly reworded = ListExplanations.reword(restore(a, originals, described, translated, bases), originals,
            orders);
        final String told = ListExplanations.emptyLists(
            baseAppenderForInit(reworded.explanation(), a.cycle(), translated, bases), originals);
        final Anomaly restored = told == null || told.equals(reworded.explanation()) ? reworded
            : new Anomaly(reworded.type(), reworded.name(), reworded.violates(), reworded.transactions(),
                reworded.cycle(), told, reworded.read());
        if (restored.violates().isEmpty()) {
          dropped.merge(a.displayName(), 1L, Long::sum); // a cycle only weak levels forbid: not decided here
        } else {
          all.add(restored);
          if (!restored.displayName().equals(a.displayName())) { // named by the lists' edges (ListExplanations)
            dropped.merge(a.displayName(), 1L, Long::sum);
            renamed.merge(restored.displayName(), 1L, Long::sum);
          }
        }
      }
    }
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    verdicts.putAll(engine.verdicts());
    reasons.putAll(engine.reasons());
    final Map<String, Long> exactSiNames = new LinkedHashMap<>();
    if (exactSi != null) {
      final CheckResult si = exactSi.result();
      verdicts.put(Level.SI, si.verdicts().get(Level.SI));
      reasons.remove(Level.SI);
      if (si.reasons().containsKey(Level.SI)) {
        reasons.put(Level.SI, si.reasons().get(Level.SI));
      }
      final Map<String, String> described = described(history, exactSi.translated().history());
      final BaseAppenders bases = new BaseAppenders(originals, exactSi.translated());
      for (final Anomaly a : si.anomalies()) {
        final Anomaly back = restore(a, originals, described, exactSi.translated(), bases);
        final String told = ListExplanations.emptyLists(back.explanation(), originals);
        final Anomaly restored = told == null || told.equals(back.explanation()) ? back : new Anomaly(back.type(),
            back.name(), back.violates(), back.transactions(), back.cycle(), told, back.read());
        if (restored.violates().contains(Level.SI)) {
          all.add(restored);
          exactSiNames.merge(restored.displayName(), 1L, Long::sum);
        }
      }
    }
    final List<Finding> findings = engine.findings();
    final List<Anomaly> ownMissed = OwnAppendReads.missed(history, orders, all, options.levels());
    all.addAll(ownMissed);
    final List<Anomaly> adya = adyaLevels(history, orders, options.levels(), verdicts, reasons, all, findings);
    all.addAll(adya);
    final Map<String, Long> beforeAxioms = names(all);
    final java.util.Set<Level> axiomatic = axiomLevels(history, orders, verdicts, reasons, all);
    final Map<String, Long> axiomDelta = names(all);
    beforeAxioms.forEach((k, v) -> axiomDelta.merge(k, -v, Long::sum));
    weakLevels(verdicts, reasons, all, axiomatic);
    for (final Anomaly a : concat(lists, ownMissed)) {
      for (final Level l : a.violates()) {
        if (verdicts.containsKey(l) && !axiomatic.contains(l)) {
          verdicts.put(l, Verdict.VIOLATED);
          reasons.remove(l);
        }
      }
    }
    final Map<String, Long> byName = new LinkedHashMap<>();
    for (final Anomaly a : lists) {
      byName.merge(a.displayName(), 1L, Long::sum);
    }
    for (final Anomaly a : concat(ownMissed, adya)) {
      byName.merge(a.displayName(), 1L, Long::sum);
    }
    exactSiNames.forEach((k, v) -> byName.merge(k, v, Long::sum));
    engine.stats().anomaliesByName().forEach((k, v) -> {
      final long kept = v - dropped.getOrDefault(k, 0L);
      if (kept > 0) {
        byName.merge(k, kept, Long::sum);
      }
    });
    renamed.forEach((k, v) -> byName.merge(k, v, Long::sum));
    // What axiomLevels listed or took off (its counterexamples, anomalies claiming only levels it
    // found satisfied) is counted as listed, as ResultBuilder counts the register checks'.
    axiomDelta.forEach((k, v) -> {
      if (v != 0) {
        final long n = byName.getOrDefault(k, 0L) + v;
        if (n > 0) {
          byName.put(k, n);
        } else {
          byName.remove(k);
        }
      }
    });
    final int max = options.maxAnomalies();
    final boolean truncated = engine.stats().anomaliesTruncated() || all.size() > max;
    final List<Anomaly> listed = all.size() > max ? all.subList(0, max) : all;
    final CheckStats s = engine.stats();
    // Indeterminate transactions a read shows reach the engine committed (RegisterTranslation).
    long seen = 0;
    for (final Transaction t : history.transactions()) {
      if (t.status() == io.isowatch.core.history.TxnStatus.UNKNOWN && orders.counted(t)) {
        seen++;
      }
    }
    final CheckStats stats = new CheckStats(s.transactions(), s.committed() - seen, s.aborted(), s.unknownPromoted() + seen,
        s.unknownIgnored(), s.sessions(), s.keys() - translated.phantoms().size(), operations, s.longRmwTransactions(),
        s.largeReadOnlyTransactions(), s.edges(), byName, truncated, (System.nanoTime() - started) / 1e9,
        s.retired());
    return new CheckResult(verdicts, reasons, listed, findings, stats);
  }

  /**
   * The engine's result on the translation, with what the open orders of unobserved appends leave
   * open settled ({@link #openOrders}) and the rest searched ({@link BlindWriteDecision}). SER and
   * SSER need no search: the engine runs with the search off, {@link #openOrders} settles them, and
   * a SATISFIED SER or SSER settles SI (a graph acyclic for SER is acyclic for SI), so only what is
   * still open is searched. When SI is asked without SER or SSER and some order is open, the engine
   * first decides SER with it: if SER is SATISFIED so is SI, with no search; otherwise it runs again
   * on the levels asked, so the result is the same as searching SI directly (issue 14, item 5).
   */
  private static CheckResult decide(final RegisterTranslation.Translated translated, final CheckOptions options) {
    final CheckOptions engineOnly = options.withSolverBudget(Duration.ZERO);
    final Set<Level> asked = options.levels();
    if (!translated.openKeys().isEmpty() && asked.contains(Level.SI) && !asked.contains(Level.SER)
        && !asked.contains(Level.SSER)) {
      final Set<Level> withSer = EnumSet.copyOf(asked);
      withSer.add(Level.SER);
      final CheckResult r = settled(WholeHistoryCheck.check(translated.history(), engineOnly.withLevels(withSer)),
          translated);
      if (r.verdicts().get(Level.SER) == Verdict.SATISFIED) {
        return without(r, Level.SER);
      }
    }
    final CheckResult r = settled(WholeHistoryCheck.check(translated.history(), engineOnly), translated);
    return BlindWriteDecision.decide(translated.history(), options, r);
  }

  /** The result with {@link #openOrders} applied, and SI SATISFIED when SER or SSER is. */
  private static CheckResult settled(final CheckResult r, final RegisterTranslation.Translated translated) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    verdicts.putAll(r.verdicts());
    reasons.putAll(r.reasons());
    final List<Finding> findings = openOrders(verdicts, reasons, r.findings(), translated);
    final boolean serializable = verdicts.get(Level.SER) == Verdict.SATISFIED
        || verdicts.get(Level.SSER) == Verdict.SATISFIED;
    if (serializable && verdicts.get(Level.SI) == Verdict.UNKNOWN) {
      verdicts.put(Level.SI, Verdict.SATISFIED);
      reasons.remove(Level.SI);
    }
    return new CheckResult(verdicts, reasons, r.anomalies(), findings, r.stats());
  }

  /** True when {@link #check} decides the history's SSER, SER and SI on the lists' graph (tests). */
  static boolean decidedOnListGraph(final History history, final CheckOptions options) {
    final ListOrders orders = ListOrders.of(history);
    return ListAnomalies.of(history, orders, options).isEmpty() && onListGraph(history, orders, options) != null;
  }

  /** The engine's part of a check decided on the lists' graph, and the translation it ran on. */
  private record Decided(RegisterTranslation.Translated translated, CheckResult result) {}

  /**
   * SSER, SER and SI decided on the lists' own graph ({@link ListSerialGraph}) when it applies and
   * has no cycle, or, when SI is the only one of the three asked, no cycle SI forbids: they are
   * SATISFIED (an acyclic graph for SER has no SI-forbidden cycle either),
   * and the engine runs only on the ops of keys whose unobserved appends have an open order ({@link
   * RegisterTranslation#openOrdersOnly}), for the findings, verdicts of the other levels and counts
   * it gives on the whole translation, with the same levels as {@link #decide}. Null when the
   * graph does not apply, has a cycle (the engine on the whole translation then finds and explains
   * it, as before), or the engine's run finds anything but blind writes: {@link #decide} then
   * decides as before. Issue 14, item 5; {@code ListAppendFastPathTest} compares both paths.
   */
  private static Decided onListGraph(final History history, final ListOrders orders, final CheckOptions options) {
    final Set<Level> classic = EnumSet.copyOf(Level.CLASSIC);
    classic.retainAll(options.levels());
    final boolean siOnly = classic.equals(EnumSet.of(Level.SI));
    final ListSerialGraph.Outcome graph = ListSerialGraph.decide(history, orders,
        options.levels().contains(Level.SSER), options.rtSkewMicros(), siOnly);
    DebugTimings.mark("list-append: lists' graph built and searched");
    if (graph == null || !(graph.acyclic() || siOnly && graph.siAcyclic())) {
      return null;
    }
    final boolean plain = plainSessions(history, orders, options);
    final RegisterTranslation.Translated open = plain ? RegisterTranslation.openOrdersOnlyTouching(history, orders, graph.open())
        : RegisterTranslation.openOrdersOnly(history, orders);
    DebugTimings.mark("list-append: open orders translated");
    final CheckOptions engineOnly = options.withInitialValue(null).withSolverBudget(Duration.ZERO);
    final Set<Level> asked = options.levels();
    final boolean serAdded = !open.openKeys().isEmpty() && asked.contains(Level.SI) && !asked.contains(Level.SER)
        && !asked.contains(Level.SSER);
    final Set<Level> levels = EnumSet.copyOf(asked);
    if (serAdded) {
      levels.add(Level.SER);
    }
    final CheckResult run = WholeHistoryCheck.check(open.history(), engineOnly.withLevels(levels),
        plain ? io.isowatch.core.online.OnlineOptions.UNBOUNDED : io.isowatch.core.online.OnlineOptions.DEFAULT_FUTURE_MICROS);
    if (!run.anomalies().isEmpty() || run.findings().stream().anyMatch(f -> f.kind() != FindingKind.BLIND_WRITE)) {
      return null;
    }
    DebugTimings.mark("list-append: engine on open orders done");
    final CheckResult settled = settled(run, open);
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    verdicts.putAll(settled.verdicts());
    reasons.putAll(settled.reasons());
    for (final Level l : Level.CLASSIC) {
      if (verdicts.containsKey(l)) {
        verdicts.put(l, Verdict.SATISFIED);
        reasons.remove(l);
      }
    }
    final java.util.Set<String> keys = orders.historyKeys();
    final CheckStats s = settled.stats();
    // Every transaction here is committed or aborted (ListSerialGraph): the graph counted both, and the sessions.
    final long committed = graph.committed();
    final long aborted = history.size() - committed;
    final CheckStats stats = new CheckStats(history.size(), committed, aborted, 0, 0, graph.sessions(), keys.size() + open.phantoms().size(), s.operations(), graph.longRmwTransactions(),
        graph.largeReadOnlyTransactions(), graph.edges(), s.anomaliesByName(), s.anomaliesTruncated(), s.seconds(),
        s.retired());
    final CheckResult result = new CheckResult(verdicts, reasons, settled.anomalies(), settled.findings(), stats);
    return new Decided(open, serAdded ? without(result, Level.SER) : result);
  }

  /**
   * True when the engine finds nothing in the history's sessions and times: ids unique; every
   * transaction with a start and an end no earlier; in each session where every transaction has a
   * seq, the seqs 0, 1, 2, ... in input order; no committed transaction starting (plus the skew)
   * before the session's previous committed one ends; no clock far ahead of the others; MIXED not
   * asked. The engine then needs to see only the transactions with ops on keys of open orders
   * ({@link RegisterTranslation#openOrdersOnlyTouching}): its findings on them are those of the
   * whole history. Only transactions committed or aborted reach here ({@link ListSerialGraph}).
   */
  private static boolean plainSessions(final History history, final ListOrders orders, final CheckOptions options) {
    if (options.levels().contains(Level.MIXED)) {
      return false;
    }
    final List<Transaction> txns = history.transactions();
    if (!uniqueIds(txns)) {
      return false;
    }
    // per session, by its number (ListOrders): the next seq (-1: some without), the last committed end
    final int[] sessionOf = orders.sessionOf();
    final long[] next = new long[orders.sessionCount()];
    final long[] lastEnd = new long[orders.sessionCount()];
    java.util.Arrays.fill(lastEnd, Long.MIN_VALUE);
    for (int i = 0; i < txns.size(); i++) {
      final Transaction t = txns.get(i);
      if (t.start() == Transaction.NO_TIME || t.end() == Transaction.NO_TIME || t.end() < t.start()) {
        return false;
      }
      final int s = sessionOf[i];
      if (t.hasSeq() && next[s] >= 0) {
        if (t.seq() != next[s]) {
          return false; // out of input order, a gap, a duplicate or a first seq other than 0
        }
        next[s]++;
      } else if (next[s] > 0 || t.hasSeq()) {
        return false; // seqs in part of the session (a seq after a transaction without one, or none after one)
      } else {
        next[s] = -1;
      }
      if (t.status() == io.isowatch.core.history.TxnStatus.COMMITTED) {
        if (lastEnd[s] != Long.MIN_VALUE && t.start() + options.rtSkewMicros() < lastEnd[s]) {
          return false;
        }
        lastEnd[s] = t.end();
      }
    }
    return !WholeHistoryCheck.hasUntrustedClocks(txns, sessionOf, orders.sessionCount());
  }

  /**
   * True when no two transactions have the same id. Ids made of one prefix and a decimal number
   * without leading zeros ({@code t0, t1, ...}: the generator's, the agents' and Elle's indices)
   * are told apart by their numbers, in a bit set; otherwise by an open-addressing table of the
   * ids (a million ids cost a hash table's random accesses, the largest part of {@link
   * #plainSessions}: lafast6).
   */
  static boolean uniqueIds(final List<Transaction> txns) {
    if (txns.isEmpty()) {
      return true;
    }
    final String first = txns.get(0).id();
    int p = first.length();
    while (p > 0 && first.charAt(p - 1) >= '0' && first.charAt(p - 1) <= '9') {
      p--;
    }
    final String prefix = first.substring(0, p);
    final long bound = 4L * txns.size() + 1024;
    final java.util.BitSet seen = new java.util.BitSet(txns.size());
    numbered:
    {
      for (int i = 0; i < txns.size(); i++) {
        final String id = txns.get(i).id();
        final int digits = id.length() - p;
        if (digits < 1 || digits > 9 || !id.startsWith(prefix) || digits > 1 && id.charAt(p) == '0') {
          break numbered;
        }
        int n = 0;
        for (int c = p; c < id.length(); c++) {
          final char ch = id.charAt(c);
          if (ch < '0' || ch > '9') {
            break numbered;
          }
          n = 10 * n + (ch - '0');
        }
        if (n > bound) {
          break numbered;
        }
        if (seen.get(n)) {
          return false;
        }
        seen.set(n);
      }
      return true;
    }
    final io.isowatch.core.online.StringIntMap ids = new io.isowatch.core.online.StringIntMap(txns.size());
    for (int i = 0; i < txns.size(); i++) {
      if (!ids.putIfAbsent(txns.get(i).id(), i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The result without a level asked only to settle another: its verdict, its reason, and its name
   * in the findings (a finding about that level alone is dropped). With that level SATISFIED no
   * anomaly violates it, so the anomalies are those of the levels asked.
   */
  private static CheckResult without(final CheckResult r, final Level level) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    verdicts.putAll(r.verdicts());
    reasons.putAll(r.reasons());
    verdicts.remove(level);
    reasons.remove(level);
    final List<Finding> findings = new ArrayList<>(r.findings().size());
    for (final Finding f : r.findings()) {
      if (!f.levels().contains(level)) {
        findings.add(f);
      } else if (f.levels().size() > 1) {
        final Set<Level> levels = EnumSet.copyOf(f.levels());
        levels.remove(level);
        findings.add(new Finding(f.kind(), levels, f.key(), f.count(), f.txns(), f.lines(), f.message()));
      }
    }
    return new CheckResult(verdicts, reasons, r.anomalies(), findings, r.stats());
  }

  /**
   * The SI verdict of {@link RegisterTranslation#translateForSnapshotIsolation}, when it can differ
   * from the engine's: SI requested, a stand-in key, and the engine found SI SATISFIED (its
   * translation gives the base's appender an RW edge to each unobserved append where the lists
   * give WW, so an SI violation needing that WW edge is missed; a violation it finds holds with WW
   * as well, since a WW edge in place of an RW one leaves no two RW edges adjacent that were not).
   * Null when the engine's verdict stands.
   */
  private static ExactSi snapshotIsolation(final History history, final ListOrders orders,
      final RegisterTranslation.Translated translated, final CheckResult engine, final CheckOptions options) {
    if (translated.phantoms().isEmpty() || engine.verdicts().get(Level.SI) != Verdict.SATISFIED) {
      return null;
    }
    // A SATISFIED SER or SSER settles SI whatever the edge kinds: the translation has the same
    // pairs of transactions ordered, and an acyclic graph has no SI-forbidden cycle either.
    if (engine.verdicts().get(Level.SER) == Verdict.SATISFIED || engine.verdicts().get(Level.SSER) == Verdict.SATISFIED) {
      return null;
    }
    final RegisterTranslation.Translated si = RegisterTranslation.translateForSnapshotIsolation(history, orders);
    final CheckResult exact = WholeHistoryCheck.check(si.history(),
        options.withInitialValue(null).withLevels(java.util.Set.of(Level.SI)));
    return exact.verdicts().get(Level.SI) == Verdict.SATISFIED ? null : new ExactSi(si, exact);
  }

  /** The SI translation and the engine's result on it. */
  private record ExactSi(RegisterTranslation.Translated translated, CheckResult result) {}

  /**
   * Settles what the open order of unobserved appends leaves open. Every order of them puts each
   * after the latest version a read shows, and the translation gives the engine exactly those
   * edges; a cycle in some order uses a chain of unobserved appends, which a topological order of
   * the acyclic common graph avoids, so SER and SSER (acyclicity) are decided by the common edges
   * alone: when the BLIND_WRITE findings of open keys are all that left them UNKNOWN, they are
   * SATISFIED. SI is not settled that way and stays UNKNOWN. The findings name the original keys.
   */
  private static List<Finding> openOrders(final Map<Level, Verdict> verdicts, final Map<Level, String> reasons,
      final List<Finding> engineFindings, final RegisterTranslation.Translated translated) {
    if (translated.openKeys().isEmpty()) {
      return engineFindings;
    }
    final List<Finding> findings = new ArrayList<>(engineFindings.size());
    for (final Finding f : engineFindings) {
      final RegisterTranslation.Phantom p = f.key() == null ? null : translated.phantoms().get(f.key());
      final boolean open = f.kind() == FindingKind.BLIND_WRITE
          && (p != null || translated.openKeys().contains(f.key()));
      if (f.kind() == FindingKind.BLIND_WRITE && f.key() == null && !translated.registerWrites()) {
        // The engine's summary of the keys beyond those it names: all unobserved appends here.
        final java.util.Set<Level> levels = java.util.EnumSet.noneOf(Level.class);
        levels.addAll(f.levels());
        levels.remove(Level.SER);
        levels.remove(Level.SSER);
        findings.add(new Finding(f.kind(), levels, null, f.count(), f.txns(), f.lines(),
            beyondNamedKeys(f, translated)));
        continue;
      }
      if (!open) {
        findings.add(f);
        continue;
      }
      final String key = p != null ? p.key() : f.key();
      final java.util.Set<Level> levels = java.util.EnumSet.noneOf(Level.class);
      levels.addAll(f.levels());
      levels.remove(Level.SER);
      levels.remove(Level.SSER);
      findings.add(new Finding(f.kind(), levels, key, f.count(), f.txns(), f.lines(),
          f.count() + " append(s) to " + key + " that no read shows, e.g. by " + String.join(", ", f.txns())
              + ": each comes after the latest version of " + key + " a read shows, in an order nothing fixes; "
              + "SER and SSER do not depend on that order, SI does (docs/list-append.md)"));
    }
    for (final Level l : List.of(Level.SER, Level.SSER)) {
      if (verdicts.get(l) != Verdict.UNKNOWN) {
        continue;
      }
      final boolean onlyOpenOrders = findings.stream()
          .filter(f -> f.kind().severity() == FindingKind.Severity.UNDECIDABLE || f.kind().severity()
              == FindingKind.Severity.INVALID)
          .noneMatch(f -> f.levels().contains(l));
      if (onlyOpenOrders) {
        verdicts.put(l, Verdict.SATISFIED);
        reasons.remove(l);
      }
    }
    return findings;
  }

  /**
   * The message of the engine's BLIND_WRITE summary of the keys beyond those it names, told with
   * the user's key (the engine names the stand-in key, e.g. {@code k97'}).
   */
  private static String beyondNamedKeys(final Finding f, final RegisterTranslation.Translated translated) {
    String key = null;
    for (final RegisterTranslation.Phantom p : translated.phantoms().values()) {
      if (f.message().contains(" " + p.name() + " ")) {
        key = p.key();
        break;
      }
    }
    return f.count() + " append(s) that no read shows, on keys beyond those named in the other BLIND_WRITE findings"
        + (key == null ? "" : ", e.g. to " + key) + (f.txns().isEmpty() ? "" : " by " + String.join(", ", f.txns()))
        + ": each comes after the latest version of its key a read shows, in an order nothing fixes; SER and SSER do "
        + "not depend on that order, SI does (docs/list-append.md)";
  }

  /**
   * Decides PL2 and RR, when requested, on the lists' own dependency graph ({@link
   * ListDependencyCycles}): VIOLATED by a non-cycle anomaly that violates them or by a cycle
   * (returned as its counterexample), UNKNOWN when an input finding leaves the level undecided,
   * SATISFIED otherwise. {@link #weakLevels} then leaves these two as decided here.
   */
  private static List<Anomaly> adyaLevels(final History history, final ListOrders orders, final java.util.Set<Level> requested,
      final Map<Level, Verdict> verdicts, final Map<Level, String> reasons, final List<Anomaly> anomalies,
      final List<Finding> findings) {
    final List<Anomaly> found = new ArrayList<>();
    Anomaly cycle = null;
    for (final Level l : List.of(Level.PL2, Level.RR)) {
      if (!requested.contains(l)) {
        continue;
      }
      if (anomalies.stream().anyMatch(a -> a.cycle().isEmpty() && a.violates().contains(l))) {
        verdicts.put(l, Verdict.VIOLATED);
        reasons.remove(l);
        continue;
      }
      final Finding undecided = findings.stream().filter(f -> f.levels().contains(l)
          && (f.kind().severity() == FindingKind.Severity.UNDECIDABLE || f.kind().severity() == FindingKind.Severity.INVALID)
          && f.kind() != FindingKind.BLIND_WRITE).findFirst().orElse(null);
      if (undecided != null) {
        verdicts.put(l, Verdict.UNKNOWN);
        reasons.put(l, undecided.message());
        continue;
      }
      if (cycle == null || !cycle.violates().contains(l)) {
        cycle = ListDependencyCycles.cycle(history, orders, l);
        if (cycle != null) {
          found.add(new Anomaly(cycle.type(), cycle.name(), Level.shown(cycle.violates(), requested),
              cycle.transactions(), cycle.cycle(), cycle.explanation()));
        }
      }
      verdicts.put(l, cycle != null && cycle.violates().contains(l) ? Verdict.VIOLATED : Verdict.SATISFIED);
      reasons.remove(l);
    }
    return found;
  }

  /**
   * Decides RC, RA, CC and PC, when requested, by their axioms over the lists' write-read relation
   * and version orders ({@link ListWeakLevels}, exact: docs/list-append.md). Where it decides, its
   * verdict stands, and an anomaly of the other checks that claims a level it finds satisfied (one
   * about a read of the reader's own appends, which these levels judge by the version they build
   * on) no longer claims it. Where it does not (register ops, an element appended twice), a level is
   * VIOLATED by a non-cycle anomaly that violates it, else UNKNOWN with the reason. Returns the
   * levels settled here; {@link #weakLevels} leaves them alone.
   */
  private static java.util.Set<Level> axiomLevels(final History history, final ListOrders orders,
      final Map<Level, Verdict> verdicts, final Map<Level, String> reasons, final List<Anomaly> anomalies) {
    final java.util.Set<Level> asked = java.util.EnumSet.noneOf(Level.class);
    for (final Level l : verdicts.keySet()) {
      if (ListWeakLevels.DECIDED.contains(l)) {
        asked.add(l);
      }
    }
    if (asked.isEmpty()) {
      return asked;
    }
    final ListWeakLevels.Decision decision = ListWeakLevels.decide(history, orders, asked);
    final Map<Level, Boolean> decided = decision == null ? null : decision.violated();
    for (final Level l : asked) {
      if (decided == null) {
        final boolean proven = anomalies.stream().anyMatch(a -> a.cycle().isEmpty() && a.violates().contains(l));
        verdicts.put(l, proven ? Verdict.VIOLATED : Verdict.UNKNOWN);
        if (proven) {
          reasons.remove(l);
        } else {
          reasons.put(l, l.name() + " is decided on list-append histories only when every element is appended once and "
              + "no register op is mixed in (docs/list-append.md); no violation of it is certain");
        }
      } else if (decision.undecided().containsKey(l)) {
        final boolean proven = anomalies.stream().anyMatch(a -> a.cycle().isEmpty() && a.violates().contains(l));
        verdicts.put(l, proven ? Verdict.VIOLATED : Verdict.UNKNOWN);
        if (proven) {
          reasons.remove(l);
        } else {
          reasons.put(l, decision.undecided().get(l));
        }
      } else {
        verdicts.put(l, decided.get(l) ? Verdict.VIOLATED : Verdict.SATISFIED);
        reasons.remove(l);
      }
    }
    if (decided != null) {
      for (int i = 0; i < anomalies.size(); i++) {
        final Anomaly a = anomalies.get(i);
        final java.util.Set<Level> kept = java.util.EnumSet.noneOf(Level.class);
        kept.addAll(a.violates());
        kept.removeIf(l -> decided.containsKey(l) && !decided.get(l));
        if (kept.size() < a.violates().size()) {
          final String explanation = retold(a.explanation(), kept);
          anomalies.set(i, new Anomaly(a.type(), a.name(), kept, a.transactions(), a.cycle(), explanation, a.read()));
        }
      }
      anomalies.removeIf(a -> a.violates().isEmpty()); // it only claimed levels found satisfied
      for (final Map.Entry<Level, Anomaly> w : decision.counterexamples().entrySet()) {
        if (anomalies.stream().noneMatch(a -> a.violates().contains(w.getKey()))) {
          anomalies.add(w.getValue());
        }
      }
    }
    return asked;
  }

  /** How many anomalies of each name {@code anomalies} lists. */
  private static Map<String, Long> names(final List<Anomaly> anomalies) {
    final Map<String, Long> out = new HashMap<>();
    for (final Anomaly a : anomalies) {
      out.merge(a.displayName(), 1L, Long::sum);
    }
    return out;
  }

  /**
   * The levels not decided above (MIXED) are not decided on list-append histories: the
   * translation's read before each append says the appender saw the version it builds on, which
   * SSER, SER and SI all imply (under SI two writers of one key cannot be concurrent), but the
   * weaker levels do not (under causal consistency an append may be ordered after another it never
   * saw). Such a level is VIOLATED only by an anomaly that does not rest on that read (an aborted
   * or intermediate read, an internal or thin-air read, a list anomaly); otherwise UNKNOWN.
   */
  private static void weakLevels(final Map<Level, Verdict> verdicts, final Map<Level, String> reasons,
      final List<Anomaly> anomalies, final java.util.Set<Level> decided) {
    for (final Level l : List.copyOf(verdicts.keySet())) {
      if (Level.CLASSIC.contains(l) || l == Level.PL2 || l == Level.RR || decided.contains(l)) {
        continue; // PL2 and RR: adyaLevels; RC, RA, CC, PC: axiomLevels
      }
      final boolean proven = anomalies.stream().anyMatch(a -> a.cycle().isEmpty() && a.violates().contains(l));
      if (proven) {
        verdicts.put(l, Verdict.VIOLATED);
        reasons.remove(l);
      } else {
        verdicts.put(l, Verdict.UNKNOWN);
        reasons.put(l, l.name() + " is not decided on list-append histories (only SSER, SER, SI, PC, CC, RA, RC, RR and PL2 are; "
            + "docs/list-append.md); no violation of it is certain");
      }
    }
  }

  /**
   * How the explanations describe each translated transaction whose ops the translation changed,
   * mapped to the same description with the original ops (the {@code Let:} lines of {@link
   * io.isowatch.core.check.Explainer}).
   */
  private static Map<String, String> described(final History original, final History translated) {
    final Map<String, String> map = new HashMap<>();
    for (int i = 0; i < original.size(); i++) {
      final Transaction o = original.transactions().get(i);
      final Transaction r = translated.transactions().get(i);
      if (!o.ops().equals(r.ops()) || o.status() != r.status()) {
        map.putIfAbsent(ops(r) + tail(r), ops(o) + tail(o));
      }
    }
    return map;
  }

  private static String tail(final Transaction t) {
    return " (session " + t.session() + ", " + t.status().wire() + (t.line() > 0 ? ", line " + t.line() : "") + ")";
  }

  /**
   * The transaction that appended each stand-in key's base (the last element of the latest list any
   * read shows; the last such transaction that did not abort, in the order of {@code originals}),
   * found for every stand-in by one pass over the history on first use and kept for the anomalies
   * of the check, each of which scanned the whole history before.
   */
  private static final class BaseAppenders {
    private final Map<String, Transaction> originals;
    private final RegisterTranslation.Translated translated;
    /** Per original key, its base's appender; null until first use. */
    private Map<String, Transaction> byKey;

    BaseAppenders(final Map<String, Transaction> originals, final RegisterTranslation.Translated translated) {
      this.originals = originals;
      this.translated = translated;
    }

    /** The base's appender of the stand-in, or null when none that did not abort appended it. */
    Transaction of(final RegisterTranslation.Phantom p) {
      if (byKey == null) {
        final Map<String, Long> base = new HashMap<>();
        for (final RegisterTranslation.Phantom q : translated.phantoms().values()) {
          if (q.base() != null) {
            base.put(q.key(), q.base());
          }
        }
        byKey = new HashMap<>();
        for (final Transaction t : originals.values()) {
          if (t.status() == io.isowatch.core.history.TxnStatus.ABORTED) {
            continue;
          }
          for (final Op op : t.ops()) {
            if (op.isAppend() && op.value() != null && op.value().equals(base.get(op.key()))) {
              byKey.put(op.key(), t);
            }
          }
        }
      }
      return byKey.get(p.key());
    }
  }

  /** The engine's {@code Let:} line of the initial transaction. */
  private static final String INIT_LET = "  init = the initial transaction, writing null to every key";

  /**
   * An anomaly about a stand-in key's initial version (unobserved appends after a read of the
   * latest list) names the engine's initial transaction, "writing null to every key", which is not
   * what happened: that version stands for the latest list any read shows, appended by one
   * transaction of the history. The {@code Let:} line then names that transaction instead.
   */
  private static String baseAppenderForInit(final String explanation, final List<io.isowatch.core.check.Edge> cycle,
      final RegisterTranslation.Translated translated, final BaseAppenders bases) {
    if (explanation == null || !explanation.contains(INIT_LET + "\n") || translated.phantoms().isEmpty()) {
      return explanation;
    }
    RegisterTranslation.Phantom phantom = null;
    for (final io.isowatch.core.check.Edge e : cycle) {
      final RegisterTranslation.Phantom p = e.key() == null ? null : translated.phantoms().get(e.key());
      if (p != null) {
        if (phantom != null && phantom != p) {
          return explanation; // two stand-in keys: no one transaction stands for init
        }
        phantom = p;
      }
    }
    if (phantom == null || phantom.base() == null) {
      return explanation;
    }
    final Transaction appender = bases.of(phantom);
    if (appender == null) {
      return explanation;
    }
    final String rest = explanation.replace(INIT_LET + "\n", "");
    final String line = rest.matches("(?s).*\\binit\\b.*")
        ? "  init = the transaction that appended " + phantom.base() + " to " + phantom.key() + " (" + appender.id()
            + "): the latest version of " + phantom.key() + " any read shows, which every append no read shows follows"
        : "  " + appender.id() + " = " + ops(appender) + tail(appender);
    return explanation.replace(INIT_LET, line);
  }

  /** The engine's anomaly about the translated transactions, told with the original ones. */
  private static Anomaly restore(final Anomaly a, final Map<String, Transaction> originals,
      final Map<String, String> described, final RegisterTranslation.Translated translated, final BaseAppenders bases) {
    final Map<String, int[]> origin = translated.origin();
    final List<Transaction> txns = new ArrayList<>(a.transactions().size());
    for (final Transaction t : a.transactions()) {
      txns.add(originals.getOrDefault(t.id(), t));
    }
    String explanation = a.explanation();
    if (explanation != null) {
      final StringBuilder sb = new StringBuilder(explanation.length() + LEGEND.length());
      Map<String, Transaction> byId = null;
      for (final String line : explanation.split("\n", -1)) {
        final int eq = line.indexOf(" = [");
        String replaced = eq < 0 ? null : described.get(line.substring(eq + 3));
        if (replaced == null && LET_OPS.matcher(line).find()) {
          if (byId == null) {
            byId = new HashMap<>();
            for (final Transaction t : translated.history().transactions()) {
              byId.putIfAbsent(t.id(), t);
            }
          }
          final String told = letWithOriginalOps(line, byId, originals);
          sb.append(sb.length() == 0 ? "" : "\n").append(told);
          continue;
        }
        sb.append(sb.length() == 0 ? "" : "\n").append(replaced == null ? line : line.substring(0, eq + 3) + replaced);
      }
      explanation = ListExplanations.listSentences(sb.toString(), translated.registerWrites()) + LEGEND;
    }
    List<io.isowatch.core.check.Edge> cycle = a.cycle();
    if (!translated.phantoms().isEmpty()) {
      final List<io.isowatch.core.check.Edge> edges = new ArrayList<>(cycle.size());
      for (final io.isowatch.core.check.Edge e : cycle) {
        final RegisterTranslation.Phantom p = e.key() == null ? null : translated.phantoms().get(e.key());
        // An edge on a stand-in key is about the original key's latest read version (RW into an
        // unobserved append) or an unobserved append itself (WW, WR: their value is the element).
        edges.add(p == null ? e : new io.isowatch.core.check.Edge(e.from(), e.to(), e.kind(), p.key(),
            e.value() == null ? p.base() : e.value()));
      }
      cycle = edges;
      if (explanation != null) {
        for (final RegisterTranslation.Phantom p : translated.phantoms().values()) {
          if (!explanation.contains(p.name())) {
            // Every rewrite below needs the stand-in's name in the text: skip the others at once (a
            // history has a stand-in per unobserved append, and each anomaly was scanned for each).
            continue;
          }
          explanation = standInInitialRead(explanation, p, originals, bases);
          explanation = explanation
              .replace(p.name() + "=null, the initial value of " + p.name() + "; every version order puts the initial "
                  + "version first", p.key() + "=" + p.base() + ", the latest version of " + p.key() + " any read shows; "
                  + "every append no read shows comes after it")
              .replace(p.name() + "=", p.key() + "=")
              .replace(p.name() + " ", p.key() + " ");
        }
      }
    }
    AnomalyRead read = a.read();
    if (read != null && origin.containsKey(read.txn())) {
      final int[] from = origin.get(read.txn());
      final int op = read.op() < from.length ? Math.max(0, from[read.op()]) : read.op();
      read = new AnomalyRead(read.txn(), op, read.key(), read.value());
    }
    java.util.Set<Level> violates = a.violates();
    if (!a.cycle().isEmpty() && !Level.CLASSIC.containsAll(violates)) {
      // A cycle's edges rest on the reads before the appends, which only SSER, SER and SI imply (weakLevels).
      violates = java.util.EnumSet.noneOf(Level.class);
      for (final Level l : a.violates()) {
        if (Level.CLASSIC.contains(l)) {
          violates.add(l);
        }
      }
      explanation = retold(explanation, violates);
    }
    return new Anomaly(a.type(), a.name(), violates, txns, cycle, explanation, read);
  }

  /**
   * The weak explainer's "T read k'=null, the initial value, although it had seen ... T2 must commit
   * before init; but init commits before T2, since the initial transaction precedes every other",
   * k' a stand-in key: the translation gives the appender of the base (the last element of the
   * latest list any read shows) and the readers of that list a read of the stand-in's initial
   * version, which every unobserved append follows. Told as what the lists show: T appended the
   * base, or read the list ending in it, and every append no read shows (the other transaction's)
   * comes after it. Unchanged when the base's appender is unknown or T is neither.
   */
  private static String standInInitialRead(final String explanation, final RegisterTranslation.Phantom p,
      final Map<String, Transaction> originals, final BaseAppenders bases) {
    if (p.base() == null || !explanation.contains(p.name() + "=null, the initial value")) {
      return explanation;
    }
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b(\\S+) read " + java.util.regex.Pattern.quote(p.name())
        + "=null, the initial value(?: of " + java.util.regex.Pattern.quote(p.name()) + ")?(?=, although)").matcher(explanation);
    if (p.base() == null || !m.find() || originals.get(m.group(1)) == null) {
      return explanation;
    }
    final Transaction t = originals.get(m.group(1));
    final Transaction baseAppender = bases.of(p);
    if (baseAppender == null) {
      return explanation;
    }
    final String latest = ", the latest element of " + p.key() + " any read shows, which every append no read shows follows";
    String told = null;
    if (baseAppender == t) {
      told = t.id() + " appended " + p.base() + " to " + p.key() + latest;
    } else {
      for (final Op op : t.ops()) {
        if (told == null && op.isListRead() && op.key().equals(p.key()) && op.elements().contains(p.base())) {
          told = t.id() + " read " + p.key() + "=" + op.elements().toString().replace(" ", "") + ", whose " + p.base()
              + ", appended by " + baseAppender.id() + latest.substring(1);
        }
      }
    }
    if (told == null) {
      return explanation;
    }
    final String base = baseAppender.id() + "'s " + p.base();
    final String text = explanation.substring(0, m.start()) + told + explanation.substring(m.end());
    return text.replace(" must commit before init;", " must commit before " + base + ";")
        .replaceAll("but init commits before (\\S+), since the initial transaction precedes every other\\.",
            "but " + java.util.regex.Matcher.quoteReplacement(base) + " comes before $1's appends to "
                + java.util.regex.Matcher.quoteReplacement(p.key()) + ", which no read shows.");
  }

  /**
   * A {@code Let:} line of an explainer whose tail is not the cycle explainer's (the mixed and weak
   * explainers add the level a reader is judged at or declared: "(session s1, committed, judged at
   * PC, line 2)"; the read anomalies' lines have none): the transaction (group 2, or its alias's
   * target, group 3), its ops (group 4).
   */
  private static final java.util.regex.Pattern LET_OPS =
      java.util.regex.Pattern.compile("^(  (\\S+) = (?:(\\S+) )?)\\[([^\\]]*)\\](?= \\(session |$)");

  /**
   * The {@code Let:} line with the original transaction's ops where it shows exactly the
   * translation's ops (and its status, when the translation committed an indeterminate one), so
   * that no explanation shows a stand-in key or a register op the history does not have (issue 14,
   * wording item 2); the line as it was otherwise.
   */
  private static String letWithOriginalOps(final String line, final Map<String, Transaction> translated,
      final Map<String, Transaction> originals) {
    final java.util.regex.Matcher m = LET_OPS.matcher(line);
    if (!m.find()) {
      return line;
    }
    final String id = m.group(3) != null ? m.group(3) : m.group(2);
    final Transaction r = translated.get(id);
    final Transaction o = originals.get(id);
    if (r == null || o == null || !ops(r).equals("[" + m.group(4) + "]")) {
      return line;
    }
    String rest = line.substring(m.end());
    final String translatedTail = " (session " + o.session() + ", " + r.status().wire();
    if (o.status() != r.status() && rest.startsWith(translatedTail)) {
      rest = " (session " + o.session() + ", " + o.status().wire() + rest.substring(translatedTail.length());
    }
    return m.group(1) + ops(o) + rest;
  }

  /**
   * The levels an explanation's closing sentence names: "This violates A, B and C." (the cycle
   * explainer) or "This violates A, B, C (type, name)" (the weak levels' explainer).
   */
  private static final java.util.regex.Pattern VIOLATES =
      java.util.regex.Pattern.compile("This violates [A-Z0-9]+(?:(?:, | and )[A-Z0-9]+)*");

  /**
   * The explanation with its closing sentence naming {@code levels}, the levels left to its anomaly,
   * so that the text does not claim a level the anomaly no longer lists; unchanged when none is left
   * (such an anomaly is dropped) or it has no such sentence.
   */
  private static String retold(final String explanation, final java.util.Set<Level> levels) {
    if (explanation == null || levels.isEmpty()) {
      return explanation;
    }
    final List<String> names = new ArrayList<>();
    for (final Level l : Level.strongestFirst(levels)) {
      names.add(l.name());
    }
    return VIOLATES.matcher(explanation).replaceFirst("This violates " + (names.size() == 1 ? names.get(0)
        : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1)));
  }

  private static List<Anomaly> concat(final List<Anomaly> a, final List<Anomaly> b) {
    final List<Anomaly> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static String ops(final Transaction t) {
    return "[" + t.ops().stream().map(Op::toString).collect(Collectors.joining(" ")) + "]";
  }
}
