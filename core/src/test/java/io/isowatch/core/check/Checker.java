package io.isowatch.core.check;

import io.isowatch.core.graph.Digraph;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides SSER, SER and SI on a history and explains every violation. Exact on mini-transaction
 * histories (MTC, Algorithm 1 with Section IV-C) and on read-modify-write and read-only
 * transactions of any size; where the version order is not determined (blind writes, repeated
 * values) it reports UNKNOWN with typed findings rather than guessing, unless a violation is
 * certain whatever the order; then, like {@code isowatch check}, the levels left open by blind
 * writes go to the search of version orders ({@link io.isowatch.core.solve.BlindWriteDecision}).
 *
 * <p>The result depends only on the history, not on how its sessions are interleaved in the
 * source: transactions are indexed canonically (see {@link IndexedHistory}).
 */
public final class Checker {
  private static final Level[] SEARCH_ORDER = {Level.SI, Level.SER, Level.SSER};

  private final CheckOptions options;

  public Checker(final CheckOptions options) {
    this.options = options;
  }

  public CheckResult check(final History history) {
    final long started = System.nanoTime();
    final Findings findings = new Findings();
    final IndexedHistory h = IndexedHistory.of(history, findings);
    final ReadResolution res = ReadResolution.resolve(h, options.initialValue());
    final DependencyGraph dg = DependencyGraph.build(res);
    reportTimingFindings(h, res, findings);
    reportBlindWrites(dg, findings);

    final AnomalyFactory factory = new AnomalyFactory(dg, options.rtSkewMicros());
    final AnomalyList list = new AnomalyList(options.maxAnomalies());
    addReadAnomalies(res, factory, list);
    addLostUpdates(dg, factory, list);

    final CycleSearch search = new CycleSearch(dg, options.maxAnomalies());
    final Set<Level> cyclic = new HashSet<>();
    for (final Level level : SEARCH_ORDER) {
      if (options.levels().contains(level) && graphHasCycle(level, dg, search)) {
        cyclic.add(level);
      }
    }
    for (final List<CycleStep> steps : search.cycles()) {
      final Anomaly a = factory.cycle(steps);
      list.add(a.displayName(), () -> a);
    }
    final List<Anomaly> anomalies = list.select();
    final Map<String, Long> counts = list.counts();
    final boolean truncated = list.truncated() || search.truncated();

    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    final boolean everyLevel = !res.anomalies.isEmpty() || !dg.divergences.isEmpty();
    final boolean missingTimes = findings.has(FindingKind.MISSING_TIMESTAMPS);
    for (final Level level : options.levels()) {
      if (everyLevel || cyclic.contains(level)) {
        verdicts.put(level, Verdict.VIOLATED);
      } else if (!dg.undeterminedReasons.isEmpty()) {
        verdicts.put(level, Verdict.UNKNOWN);
        reasons.put(level, UnknownReasons.versionOrderOpen(dg.undeterminedReasons, dg.undeterminedKeys));
      } else if (level == Level.SSER && missingTimes) {
        verdicts.put(level, Verdict.UNKNOWN);
        reasons.put(level, UnknownReasons.MISSING_TIMES);
      } else {
        verdicts.put(level, Verdict.SATISFIED);
      }
    }
    final CheckStats stats = stats(history, h, res, dg, counts, truncated, started);
    // The search of version orders left open by blind writes is one shared step after either engine.
    return io.isowatch.core.solve.BlindWriteDecision.decide(
        history, options, new CheckResult(verdicts, reasons, anomalies, findings.toList(), stats));
  }

  private boolean graphHasCycle(final Level level, final DependencyGraph dg, final CycleSearch search) {
    final Digraph g = switch (level) {
      case SI -> LevelGraphs.si(dg);
      case SER -> LevelGraphs.ser(dg);
      case SSER -> LevelGraphs.sser(dg, options.rtSkewMicros());
      default -> throw new IllegalArgumentException("the batch Checker decides SSER, SER and SI only, not " + level);
    };
    return search.search(level, g, options.rtSkewMicros());
  }

  private void addReadAnomalies(final ReadResolution res, final AnomalyFactory factory, final AnomalyList list) {
    final List<ReadAnomaly> sorted = new ArrayList<>(res.anomalies);
    sorted.sort((a, b) -> a.reader() != b.reader() ? Integer.compare(a.reader(), b.reader())
        : Integer.compare(a.opIndex(), b.opIndex()));
    for (final ReadAnomaly a : sorted) {
      list.add(a.kind().name(), () -> factory.read(a));
    }
  }

  private void addLostUpdates(final DependencyGraph dg, final AnomalyFactory factory, final AnomalyList list) {
    final List<int[]> sorted = new ArrayList<>(dg.divergences);
    sorted.sort((x, y) -> x[1] != y[1] ? Integer.compare(x[1], y[1]) : Integer.compare(x[2], y[2]));
    for (final int[] d : sorted) {
      list.add("LostUpdate", () -> factory.lostUpdate(d[0], d[1], d[2]));
    }
  }

  private void reportTimingFindings(final IndexedHistory h, final ReadResolution res, final Findings findings) {
    Transaction prev = null;
    int prevSession = -1;
    for (int t = 1; t < h.size(); t++) {
      if (!res.counted[t]) {
        continue;
      }
      final Transaction txn = h.txns[t];
      if (txn.hasTimes() && txn.end() < txn.start()) {
        findings.add(FindingKind.END_BEFORE_START, null, txn.id(), txn.line(), FindingMessages.endBeforeStart(txn));
      }
      if (!RealTime.known(txn)) {
        if (options.levels().contains(Level.SSER)) {
          findings.add(FindingKind.MISSING_TIMESTAMPS, null, txn.id(), txn.line(),
              FindingMessages.missingTimestamps(txn.id()));
        }
      } else if (prev != null && prevSession == h.sessionOf[t] && RealTime.endUsable(prev)
          && txn.start() + options.rtSkewMicros() < prev.end()) {
        findings.add(FindingKind.SESSION_TIME_OVERLAP, null, txn.id(), txn.line(),
            FindingMessages.sessionTimeOverlap(txn, prev.id()));
      }
      prev = txn;
      prevSession = h.sessionOf[t];
    }
    for (int t = 1; t < h.size(); t++) {
      if (h.txns[t].status() == TxnStatus.UNKNOWN && !res.counted[t]) {
        findings.add(FindingKind.UNKNOWN_IGNORED, null, h.txns[t].id(), h.txns[t].line(),
            FindingMessages.unknownIgnored(h.txns[t].id()));
      }
    }
  }

  private static void reportBlindWrites(final DependencyGraph dg, final Findings findings) {
    if (dg.blindWrites == 0) {
      return;
    }
    final ReadResolution res = dg.res;
    for (int row = 0; row < res.instTxn.size(); row++) {
      if (res.instBlind.get(row) == 1) {
        final Transaction t = dg.h.txns[res.instTxn.get(row)];
        final int key = res.instKey.get(row);
        final boolean open = dg.undeterminedKey[key];
        findings.add(FindingKind.BLIND_WRITE, dg.h.keyNames[key], t.id(), t.line(),
            FindingMessages.blindWrite(t.id(), dg.h.keyNames[key], open), open ? Level.CLASSIC : Set.of());
      }
    }
  }

  private CheckStats stats(
      final History history,
      final IndexedHistory h,
      final ReadResolution res,
      final DependencyGraph dg,
      final Map<String, Long> counts,
      final boolean truncated,
      final long started) {
    long committed = 0;
    long aborted = 0;
    long unknown = 0;
    long ops = 0;
    for (int t = 1; t < h.size(); t++) {
      final TxnStatus s = h.txns[t].status();
      if (res.counted[t]) {
        committed++;
      }
      if (s == TxnStatus.ABORTED) {
        aborted++;
      } else if (s == TxnStatus.UNKNOWN) {
        unknown++;
      }
      ops += h.txns[t].ops().size();
    }
    final double seconds = (System.nanoTime() - started) / 1e9;
    return new CheckStats(history.size(), committed, aborted, res.promoted, unknown - res.promoted,
        h.sessionNames.length, h.keys(), ops, res.longRmw, res.largeReadOnly, dg.edges.size(), counts,
        truncated, seconds);
  }
}
