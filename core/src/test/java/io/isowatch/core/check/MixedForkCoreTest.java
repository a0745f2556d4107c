package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A violation of MIXED that only the search of forked version orders ({@link MixedForkSearch})
 * proves is explained by the sub-history its proof used (a core, {@link WeakGraph#sub}), at any
 * size: the core alone has no commit order (the brute-force oracle of paper 003 agrees), and every
 * read, write and session order the explanation cites is in the history.
 */
class MixedForkCoreTest {
  /** Forked histories per run ({@code -Dhistories=N} for more). */
  private static final int HISTORIES = Integer.getInteger("histories", 10_000);
  private static final long SEED = Long.getLong("seed", 24_006L);

  /**
   * "T3 (declared SER) read x=2 from T1" or "... read x=0, the initial value"; a split's header
   * says "T3 (declared SI), which read y=3 from T2".
   */
  private static final Pattern READ_FROM = Pattern.compile(
      "(\\w+) \\(declared (\\w+)\\)(?:, which)? read (\\w+)=(-?\\d+)(?: from (\\S+?)\\b|, the initial value)");
  /** "T2 read x=1, which T1 wrote". */
  private static final Pattern WR = Pattern.compile("(\\w+) read (\\w+)=(-?\\d+), which (\\w+) wrote");
  /** "T2 read x=1 from T1" (a path an RC, RA or CC reader saw its writer by). */
  private static final Pattern SEEN = Pattern.compile("(\\w+) read (\\w+)=(-?\\d+) from (\\w+)");
  /** "T1 precedes T4 in session s1". */
  private static final Pattern SO = Pattern.compile("(\\S+) precedes (\\S+) in session (\\S+?)[;,\\n]");
  /** "T2, which also wrote x". */
  private static final Pattern ALSO_WROTE = Pattern.compile("(\\S+), which also wrote (\\w+)");

  @Test
  void shouldExplainEveryForkedHistoryTheForkSearchRefutesByACoreTheOracleRefutes() {
    final Random rnd = new Random(SEED);
    final List<String> failures = new ArrayList<>();
    int refuted = 0;
    int smaller = 0;
    int decided = 0;
    for (int i = 0; i < HISTORIES; i++) {
      // Given: a small forked MT history, each transaction declaring a random level
      final String dsl = MixedForkSearchTest.forkedHistory(rnd);
      final History h = HistoryDsl.history(dsl);
      final Map<String, Level> declared = new HashMap<>();
      for (final Transaction t : h.transactions()) {
        declared.put(t.id(), Level.MIXABLE.get(rnd.nextInt(Level.MIXABLE.size())));
      }
      final List<WeakLevelCheck.Entry> entries = MixedForkSearchTest.entries(h);
      final WeakGraph graph = new WeakGraph(entries, 0L, false, true);
      final Level[] level = levels(graph, declared);
      final MixedChains chains = new MixedChains(graph, level);

      // When
      final boolean decidedByChains = chains.decide() != null;
      final MixedLevelCheck.Result result = new MixedLevelCheck(entries, 0L, false, true, t -> declared.get(t.id()))
          .decide(EnumSet.of(Level.MIXED));
      final boolean oracle = WeakLevelOracle.decideMixed(h, 0L, t -> WeakLevel.valueOf(declared.get(t.id()).name()));

      // Then: the check agrees with the oracle; a refutation's core is refuted on its own, by the
      // general check and by the oracle, and the counterexample cites only what the history holds
      final String what = "history " + i + " declared " + declared + "\n" + dsl;
      if (result.verdict() != (oracle ? Verdict.SATISFIED : Verdict.VIOLATED)) {
        failures.add("the check said " + result.verdict() + " (" + result.unknownReason() + "), oracle " + oracle
            + ": " + what);
      }
      decided += decidedByChains ? 1 : 0;
      if (decidedByChains || !chains.forkRefuted()) {
        continue;
      }
      refuted++;
      final int[] core = chains.forkCore();
      if (core == null) {
        failures.add("no core: " + what);
        continue;
      }
      smaller += core.length < graph.n ? 1 : 0;
      final History coreHistory = coreHistory(graph, core);
      if (WeakLevelOracle.decideMixed(coreHistory, 0L, t -> WeakLevel.valueOf(declared.get(t.id()).name()))) {
        failures.add("the oracle finds a commit order of the core " + HistoryDsl.format(coreHistory) + ": " + what);
      }
      if (!refutedAlone(graph, level, core)) {
        failures.add("the general check does not refute the core alone: " + what);
      }
      final List<String> wrong = checkClaims(result.witness(), h, declared);
      if (!wrong.isEmpty()) {
        failures.add(wrong + " in\n" + result.witness().explanation() + "\n" + what);
      }
    }
    assertEquals(List.of(), failures.size() > 5 ? failures.subList(0, 5) : failures, failures.size() + " failures");
    // Not vacuous: the fork search refutes some histories, and some cores leave transactions out
    assertTrue(refuted > HISTORIES / 100, "refuted by the fork search: " + refuted + " (decided by the chains: "
        + decided + ")");
    assertTrue(smaller > refuted / 10, "cores smaller than their history: " + smaller + " of " + refuted);
  }

  @Test
  void shouldShowACounterexampleOfARefutedForkFarAboveTheGeneralBound() {
    // Given: a small forked history whose every branch order the fork search refutes, after 30,000
    // transactions with hundreds of lost updates (a quarter SER, the rest RC, the oracle cannot
    // judge them, the fork search orders their branches) on other keys and sessions
    final Random rnd = new Random(SEED);
    final Map<String, Level> declared = new HashMap<>();
    String small = null;
    for (int i = 0; small == null; i++) {
      final String dsl = MixedForkSearchTest.forkedHistory(rnd);
      final Map<String, Level> levels = new HashMap<>();
      HistoryDsl.history(dsl).transactions().forEach(t -> levels.put(t.id(), Level.MIXABLE.get(
          rnd.nextInt(Level.MIXABLE.size()))));
      final MixedChains chains = chains(HistoryDsl.history(dsl), levels);
      if (chains.decide() == null && chains.forkRefuted()) {
        // its own ids and sessions: F1 in f1, ...
        small = dsl.replaceAll("(?m)^T(\\d+) s(\\d+)", "F$1 f$2");
        levels.forEach((id, l) -> declared.put("F" + id.substring(1), l));
      }
      assertTrue(i < 10_000, "no refuted history in 10,000");
    }
    final String busy = MixedForkSearchTest.busyForks(new Random(SEED), 30_000, declared);
    final History h = HistoryDsl.history(busy + small);

    // When
    final MixedLevelCheck.Result result = new MixedLevelCheck(MixedForkSearchTest.entries(h), 0L, false, true,
        t -> declared.get(t.id())).decide(EnumSet.of(Level.MIXED, Level.SER));

    // Then: VIOLATED, the counterexample about the small history's transactions only, each claim in it
    // true of the history, the core named as such
    assertTrue(h.transactions().size() > MixedLevelCheck.MAX_TRANSACTIONS);
    assertEquals(Verdict.VIOLATED, result.verdict(), result.unknownReason());
    final Anomaly w = result.witness();
    final Set<String> smallIds = new HashSet<>();
    HistoryDsl.history(small).transactions().forEach(t -> smallIds.add(t.id()));
    assertTrue(smallIds.containsAll(w.txnIds()), w.txnIds() + " not in " + smallIds);
    assertTrue(w.violates().contains(Level.MIXED));
    assertNotNull(w.read(), w.explanation());
    assertEquals(List.of(), checkClaims(w, h, declared), w.explanation());
    assertTrue(w.explanation().contains("of the history's " + h.transactions().size() + " transactions"),
        w.explanation());
    assertFalse(w.cycle().isEmpty());
  }

  /** Whether the general check (saturation, case splits) refutes the sub-history of {@code core}. */
  static boolean refutedAlone(final WeakGraph graph, final Level[] level, final int[] core) {
    final WeakGraph sub = graph.sub(core);
    final Level[] subLevel = new Level[core.length + 1];
    for (int i = 0; i < core.length; i++) {
      subLevel[i + 1] = level[core[i]];
    }
    final MixedSaturation saturation = new MixedSaturation(sub, subLevel);
    return saturation.run() != null || new MixedSearch(sub, subLevel).search(saturation).refuted() != null;
  }

  /**
   * The history of the core's transactions, without their reads of transactions left out (what
   * {@link WeakGraph#sub} keeps), in the same sessions and order.
   */
  static History coreHistory(final WeakGraph graph, final int[] core) {
    final Set<Integer> in = new HashSet<>();
    for (final int v : core) {
      in.add(v);
    }
    final List<Transaction> txns = new ArrayList<>();
    for (final int v : core) {
      final Transaction t = graph.txn(v);
      final Set<Integer> dropped = new HashSet<>();
      for (final WeakGraph.Read r : graph.reads[v]) {
        if (r.writer() != WeakGraph.INIT && !in.contains(r.writer())) {
          dropped.add(r.op());
        }
      }
      final List<Op> ops = new ArrayList<>();
      for (int j = 0; j < t.ops().size(); j++) {
        if (!dropped.contains(j)) {
          ops.add(t.ops().get(j));
        }
      }
      txns.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(),
          t.level(), t.line()));
    }
    return new History(txns);
  }

  /**
   * What the counterexample cites that the history does not hold: each read ("T3 (declared SER)
   * read x=2 from T1", "T2 read x=1, which T1 wrote"), each session order, each "which also wrote
   * x", its edges and its read.
   */
  static List<String> checkClaims(final Anomaly a, final History h, final Map<String, Level> declared) {
    final List<String> wrong = new ArrayList<>();
    if (a == null) {
      return List.of("no counterexample");
    }
    final Map<String, Transaction> byId = new HashMap<>();
    final Map<String, Integer> position = new HashMap<>();
    for (final Transaction t : h.transactions()) {
      byId.put(t.id(), t);
      position.put(t.id(), position.size());
    }
    final String text = a.explanation();
    final Matcher read = READ_FROM.matcher(text);
    while (read.find()) {
      final String writer = read.group(5);
      final long value = Long.parseLong(read.group(4));
      if (!reads(byId.get(read.group(1)), read.group(3), value)
          || (writer == null ? value != 0 : !writes(byId.get(writer), read.group(3), value))
          || declared.get(read.group(1)) != Level.valueOf(read.group(2))) {
        wrong.add(read.group());
      }
    }
    for (final Matcher wr : List.of(WR.matcher(text), SEEN.matcher(text))) {
     while (wr.find()) {
      if (wr.group(1).equals("which")) {
        continue; // a split's header: "T3 (declared SI), which read ...", checked as READ_FROM
      }
      final long value = Long.parseLong(wr.group(3));
      if (!reads(byId.get(wr.group(1)), wr.group(2), value) || !writes(byId.get(wr.group(4)), wr.group(2), value)) {
        wrong.add(wr.group());
      }
     }
    }
    final Matcher so = SO.matcher(text);
    while (so.find()) {
      final Transaction from = byId.get(so.group(1));
      final Transaction to = byId.get(so.group(2));
      if (from == null || to == null || !from.session().equals(so.group(3)) || !to.session().equals(so.group(3))
          || position.get(from.id()) >= position.get(to.id())) {
        wrong.add(so.group());
      }
    }
    final Matcher also = ALSO_WROTE.matcher(text);
    while (also.find()) {
      final Transaction t = byId.get(also.group(1));
      if (t == null || t.ops().stream().noneMatch(op -> op.isWrite() && op.key().equals(also.group(2)))) {
        wrong.add(also.group());
      }
    }
    for (final Edge e : a.cycle()) {
      if (!byId.containsKey(e.from()) && !e.from().equals("init") || !byId.containsKey(e.to()) && !e.to().equals("init")) {
        wrong.add("edge " + e);
      } else if (e.kind() == EdgeKind.WR && (!reads(byId.get(e.to()), e.key(), e.value())
          || !writes(byId.get(e.from()), e.key(), e.value()))) {
        wrong.add("edge " + e);
      }
    }
    if (a.read() != null) {
      final Transaction t = byId.get(a.read().txn());
      final Op op = t == null || a.read().op() >= t.ops().size() ? null : t.ops().get(a.read().op());
      if (op == null || !op.isRead() || !op.key().equals(a.read().key()) || !op.value().equals(a.read().value())) {
        wrong.add("read " + a.read());
      }
    }
    return wrong;
  }

  private static boolean reads(final Transaction t, final String key, final long value) {
    return t != null && t.ops().stream().anyMatch(op -> op.isRead() && op.key().equals(key)
        && java.util.Objects.equals(op.value(), value));
  }

  private static boolean writes(final Transaction t, final String key, final long value) {
    return t != null && t.ops().stream().anyMatch(op -> op.isWrite() && op.key().equals(key)
        && java.util.Objects.equals(op.value(), value));
  }

  private static Level[] levels(final WeakGraph graph, final Map<String, Level> declared) {
    final Level[] level = new Level[graph.n + 1];
    for (int t = 1; t <= graph.n; t++) {
      level[t] = declared.get(graph.txn(t).id());
    }
    return level;
  }

  private static MixedChains chains(final History h, final Map<String, Level> declared) {
    final WeakGraph graph = new WeakGraph(MixedForkSearchTest.entries(h), 0L, false, true);
    return new MixedChains(graph, levels(graph, declared));
  }
}
