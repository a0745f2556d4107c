package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MixedForkSearch}, the search of the branch orders of forked version orders (lost
 * updates), against the brute-force oracle of paper 003 ({@link WeakLevelOracle#decideMixed}) on
 * small random mini-transaction histories that all fork: every write a read-modify-write, reads
 * that sometimes see a stale version, each transaction declaring a random level.
 */
class MixedForkSearchTest {
  /** Forked histories per run ({@code -Dhistories=N} for more). */
  private static final int HISTORIES = Integer.getInteger("histories", 10_000);
  private static final long SEED = Long.getLong("seed", 12_003L);
  private static final List<Level> WEAK = List.of(Level.RC, Level.RA, Level.PC);
  private static final String[] KEYS = {"x", "y", "z"};
  /** Op codes over key slots: every write follows a read of its key. */
  private static final String[][] SHAPES = {
      {"r0", "w0"}, {"r0", "w0"}, {"r0", "r1", "w1"}, {"r0", "r1", "w0", "w1"}, {"r0", "w0", "r1", "w1"},
      {"r0"}, {"r0", "r1"}, {"r0", "r1", "r2"}};

  @Test
  void shouldDecideForkedHistoriesAsTheOracleDoes() {
    final Random rnd = new Random(SEED);
    final List<String> failures = new ArrayList<>();
    int bySearch = 0;
    int foundOrders = 0;
    int refuted = 0;
    int satisfied = 0;
    int violated = 0;
    for (int i = 0; i < HISTORIES; i++) {
      // Given: a small forked MT history, each transaction declaring a level
      final String dsl = forkedHistory(rnd);
      final History h = HistoryDsl.history(dsl);
      final Map<String, Level> declared = new HashMap<>();
      // Any level (CC in a quarter of the histories), or
      // mostly weak ones, as a mix of SERIALIZABLE and READ COMMITTED sessions gives
      final boolean withCc = rnd.nextInt(4) == 0;
      final boolean mostlyWeak = rnd.nextBoolean();
      final List<Level> pool = withCc ? Level.MIXABLE : Level.MIXABLE.stream().filter(l -> l != Level.CC).toList();
      for (final Transaction t : h.transactions()) {
        declared.put(t.id(), mostlyWeak && rnd.nextInt(5) > 0 ? WEAK.get(rnd.nextInt(WEAK.size()))
            : pool.get(rnd.nextInt(pool.size())));
      }
      final List<WeakLevelCheck.Entry> entries = entries(h);
      final WeakGraph graph = new WeakGraph(entries, 0L, false, true);
      final Level[] level = new Level[graph.n + 1];
      for (int t = 1; t <= graph.n; t++) {
        level[t] = declared.get(graph.txn(t).id());
      }

      // When
      final MixedChains chains = new MixedChains(graph, level);
      final MixedChains.Outcome fast = chains.decide();
      final MixedLevelCheck.Result whole = new MixedLevelCheck(entries, 0L, false, true, t -> declared.get(t.id()))
          .decide(EnumSet.of(Level.MIXED));
      final boolean oracle = WeakLevelOracle.decideMixed(h, 0L, t -> WeakLevel.valueOf(declared.get(t.id()).name()));

      // Then: the chains with the fork search, and the whole check, agree with the oracle
      final String what = "history " + i + " declared " + declared + "\n" + dsl;
      assertTrue(chains.forked, "not forked: " + what);
      if (fast != null) {
        bySearch++;
        final boolean consistent = fast.cycle() == null;
        foundOrders += consistent ? 1 : 0;
        if (consistent != oracle) {
          failures.add("chains " + (consistent ? "SATISFIED" : "VIOLATED") + ", oracle " + oracle + ": " + what);
        }
      } else if (chains.forkRefuted()) {
        refuted++;
        if (oracle) {
          failures.add("the fork search refuted every order, the oracle found one: " + what);
        }
      }
      if (whole.verdict() != (oracle ? Verdict.SATISFIED : Verdict.VIOLATED)) {
        failures.add("the check said " + whole.verdict() + " (" + whole.unknownReason() + "), oracle " + oracle + ": "
            + what);
      }
      satisfied += oracle ? 1 : 0;
      violated += oracle ? 0 : 1;
    }
    assertEquals(List.of(), failures.size() > 5 ? failures.subList(0, 5) : failures, failures.size() + " failures");
    // Not vacuous: most histories are decided by the chains and their fork search, both ways
    assertTrue(bySearch + refuted > HISTORIES * 3 / 4, "decided by the chains: " + bySearch + " + " + refuted);
    assertTrue(foundOrders > HISTORIES / 5, "commit orders found by the fork search: " + foundOrders);
    assertTrue(satisfied > HISTORIES / 10 && violated > HISTORIES / 10, satisfied + " satisfied, " + violated
        + " violated");
  }

  @Test
  void shouldDecideAHistoryFarAboveTheSearchBoundWhoseBusyKeysFork() {
    // Given: 100,000 MT transactions run one after another on 1,000 keys; a quarter declare SER and
    // read the latest versions, the rest RC, whose first read sees the version before the latest
    // one time in 20 (their writes of it fork the key: hundreds of lost updates in busy keys)
    final Random rnd = new Random(SEED);
    final Map<String, Level> declared = new HashMap<>();
    final String dsl = busyForks(rnd, 100_000, declared);
    final History h = HistoryDsl.history(dsl);
    final List<WeakLevelCheck.Entry> entries = entries(h);
    final WeakGraph graph = new WeakGraph(entries, 0L, false, true);
    final Level[] level = new Level[graph.n + 1];
    for (int t = 1; t <= graph.n; t++) {
      level[t] = declared.get(graph.txn(t).id());
    }
    final MixedChains chains = new MixedChains(graph, level);

    // When
    final MixedChains.Outcome fast = chains.decide();
    final MixedLevelCheck.Result result = new MixedLevelCheck(entries, 0L, false, true, t -> declared.get(t.id()))
        .decide(EnumSet.of(Level.MIXED));
    final MixedLevelCheck.Result off = new MixedLevelCheck(entries, 0L, false, true, t -> declared.get(t.id()),
        java.time.Duration.ZERO).decide(EnumSet.of(Level.MIXED));

    // Then: the order of execution is a commit order, and the search finds one; with no budget the
    // answer is UNKNOWN and says which option turns the search on
    assertTrue(chains.forked);
    assertTrue(entries.size() > MixedLevelCheck.MAX_TRANSACTIONS);
    assertEquals(Verdict.SATISFIED, result.verdict(), result.unknownReason());
    assertTrue(fast != null && fast.cycle() == null);
    assertEquals(Verdict.UNKNOWN, off.verdict());
    assertTrue(off.unknownReason().contains("--solver-budget 0"), off.unknownReason());
  }

  @Test
  void shouldExplainWhenTheForkSearchRefutesEveryOrderAboveTheGeneralBound() {
    // Given: a small forked history whose every branch order the fork search refutes (the first the
    // generator gives with seed 12,003), then 25,000 read-modify-writes of another key
    final Random rnd = new Random(SEED);
    String small = null;
    Map<String, Level> declared = null;
    for (int i = 0; small == null; i++) {
      final String dsl = forkedHistory(rnd);
      final History h = HistoryDsl.history(dsl);
      final Map<String, Level> levels = new HashMap<>();
      h.transactions().forEach(t -> levels.put(t.id(), Level.MIXABLE.get(rnd.nextInt(Level.MIXABLE.size()))));
      final MixedChains chains = chains(h, levels);
      if (chains.decide() == null && chains.forkRefuted()) {
        small = dsl;
        declared = levels;
      }
      assertTrue(i < 10_000, "no refuted history in 10,000");
    }
    final StringBuilder padded = new StringBuilder(small);
    for (int i = 0; i < 25_000; i++) {
      padded.append("P").append(i).append(" sp r(p,").append(i == 0 ? 0 : 1_000 + i - 1).append(") w(p,")
          .append(1_000 + i).append(")\n");
      declared.put("P" + i, Level.RC);
    }
    final Map<String, Level> all = declared;
    final History big = HistoryDsl.history(padded.toString());

    // When
    final MixedLevelCheck.Result smallResult = new MixedLevelCheck(entries(HistoryDsl.history(small)), 0L, false, true,
        t -> all.get(t.id())).decide(EnumSet.of(Level.MIXED));
    final MixedLevelCheck.Result bigResult = new MixedLevelCheck(entries(big), 0L, false, true, t -> all.get(t.id()))
        .decide(EnumSet.of(Level.MIXED));

    // Then: VIOLATED both ways (above the general bound it was UNKNOWN, "ends in a cycle", before the
    // core of the fork search's proof was explained), with the same counterexample
    assertEquals(Verdict.VIOLATED, smallResult.verdict(), small);
    assertEquals(Verdict.VIOLATED, bigResult.verdict(), bigResult.unknownReason());
    assertEquals(smallResult.witness().cycle(), bigResult.witness().cycle());
    assertEquals(List.of(), MixedForkCoreTest.checkClaims(bigResult.witness(), big, all),
        bigResult.witness().explanation());
    assertEquals(false, WeakLevelOracle.decideMixed(HistoryDsl.history(small), 0L,
        t -> WeakLevel.valueOf(all.get(t.id()).name())));
  }

  private static MixedChains chains(final History h, final Map<String, Level> declared) {
    final WeakGraph graph = new WeakGraph(entries(h), 0L, false, true);
    final Level[] level = new Level[graph.n + 1];
    for (int t = 1; t <= graph.n; t++) {
      level[t] = declared.get(graph.txn(t).id());
    }
    return new MixedChains(graph, level);
  }

  /**
   * {@code n} MT transactions in 20 sessions on 1,000 keys, run one after another: a quarter
   * declare SER (into {@code declared}) and read the latest versions; the others declare RC and
   * their first read sees, one time in 20, the version before the latest.
   */
  static String busyForks(final Random rnd, final int n, final Map<String, Level> declared) {
    final Map<String, List<Long>> versions = new HashMap<>();
    final StringBuilder dsl = new StringBuilder();
    long next = 1;
    int forks = 0;
    for (int i = 0; i < n; i++) {
      final String id = "T" + (i + 1);
      final boolean ser = rnd.nextInt(4) == 0;
      declared.put(id, ser ? Level.SER : Level.RC);
      final String x = "k" + rnd.nextInt(1_000);
      String y = "k" + rnd.nextInt(1_000);
      while (y.equals(x)) {
        y = "k" + rnd.nextInt(1_000);
      }
      final int shape = rnd.nextInt(5); // 0-1: r x w x; 2-3: r x r y w x w y; 4: r x r y
      final List<Long> vx = versions.computeIfAbsent(x, k -> new ArrayList<>(List.of(0L)));
      final List<Long> vy = versions.computeIfAbsent(y, k -> new ArrayList<>(List.of(0L)));
      final boolean stale = !ser && vx.size() > 1 && rnd.nextInt(20) == 0;
      final long rx = vx.get(vx.size() - (stale ? 2 : 1));
      final long ry = vy.get(vy.size() - 1);
      dsl.append(id).append(" s").append(rnd.nextInt(20)).append(" r(").append(x).append(',').append(rx).append(')');
      if (shape >= 2) {
        dsl.append(" r(").append(y).append(',').append(ry).append(')');
      }
      if (shape < 4) {
        forks += stale ? 1 : 0;
        dsl.append(" w(").append(x).append(',').append(next).append(')');
        vx.add(next++);
      }
      if (shape == 2 || shape == 3) {
        dsl.append(" w(").append(y).append(',').append(next).append(')');
        vy.add(next++);
      }
      dsl.append('\n');
    }
    assertTrue(forks > 100, "forks: " + forks);
    return dsl.toString();
  }

  /**
   * A small MT history in the test language in which two writers read the same version of a key:
   * transactions commit one after another, each read seeing the latest committed version or, often,
   * an older one.
   */
  static String forkedHistory(final Random rnd) {
    while (true) {
      final int n = 3 + rnd.nextInt(5);
      final int keys = 1 + rnd.nextInt(3);
      final int sessions = 1 + rnd.nextInt(3);
      final Map<String, List<Long>> versions = new HashMap<>();
      final Map<String, Map<Long, Integer>> readers = new HashMap<>();
      boolean forked = false;
      long next = 1;
      final StringBuilder dsl = new StringBuilder();
      for (int i = 0; i < n; i++) {
        final String[] shape = SHAPES[rnd.nextInt(SHAPES.length)];
        final List<String> slots = new ArrayList<>(List.of(KEYS).subList(0, keys));
        java.util.Collections.shuffle(slots, rnd);
        dsl.append('T').append(i + 1).append(" s").append(1 + rnd.nextInt(sessions));
        final Map<String, Long> read = new HashMap<>();
        final Map<String, Long> written = new HashMap<>();
        for (final String code : shape) {
          final String key = slots.get((code.charAt(1) - '0') % keys);
          if (code.charAt(0) == 'r') {
            if (written.containsKey(key) || read.containsKey(key)) {
              continue; // an internal read: the MT shapes read each key once
            }
            final List<Long> vs = versions.computeIfAbsent(key, k -> new ArrayList<>(List.of(0L)));
            final long v = rnd.nextInt(100) < 45 ? vs.get(vs.size() - 1) : vs.get(rnd.nextInt(vs.size()));
            read.put(key, v);
            dsl.append(" r(").append(key).append(',').append(v).append(')');
          } else if (!written.containsKey(key) && read.containsKey(key)) {
            final long v = next++;
            written.put(key, v);
            forked |= readers.computeIfAbsent(key, k -> new HashMap<>()).merge(read.get(key), 1, Integer::sum) > 1;
            dsl.append(" w(").append(key).append(',').append(v).append(')');
          }
        }
        written.forEach((k, v) -> versions.get(k).add(v));
        dsl.append('\n');
      }
      if (forked) {
        return dsl.toString();
      }
    }
  }

  static List<WeakLevelCheck.Entry> entries(final History h) {
    final Map<String, Integer> rank = new HashMap<>();
    final Map<String, Integer> session = new HashMap<>();
    final List<WeakLevelCheck.Entry> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      out.add(new WeakLevelCheck.Entry(t, session.computeIfAbsent(t.session(), x -> session.size()),
          rank.merge(t.session(), 1, Integer::sum)));
    }
    return out;
  }
}
