package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.finding;
import static io.isowatch.core.testkit.Outcomes.txns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The segmented engine on small streams (docs/segmentation.md): anomalies within the horizon are
 * found, also when their transactions straddle a cut; a read of a version older than the horizon
 * is a counted STALE_READ_BEYOND_HORIZON finding, an SSER violation only when real time proves it,
 * and UNKNOWN otherwise; thin air stays thin air; reads of a key's frontier stay attributed; cuts
 * invent no seq gap; cuts can be aligned on snapshot transactions.
 */
class SegmentationTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults();
  private static final long GRACE = 10;

  @Test
  void shouldFindLostUpdateAndWriteSkewWhenTheirTransactionsStraddleACut() {
    // Given: horizon 6 transactions, so the engine cuts when 12 are processed; A and C come
    // before that cut, B and D after it
    final OnlineChecker c = segmented(Horizon.ofTransactions(6));
    final List<Transaction> t = txns(fillers("f", 8, 100, 1) + """
        A s1 r(x,0) w(x,1) @900..910
        C s3 r(y,0) r(z,0) w(y,1) @920..930
        """ + fillers("g", 6, 1_000, 9) + """
        B s2 r(x,0) w(x,2) @1700..1710
        D s4 r(y,0) r(z,0) w(z,1) @1720..1730
        """ + fillers("h", 4, 2_000, 17));

    // When
    t.forEach(c::accept);
    final int retained = c.retainedTransactions();
    c.flush();
    final CheckResult r = c.result();

    // Then
    assertTrue(c.cuts() >= 1, "no cut was made");
    assertTrue(retained < t.size(), "nothing was pruned: " + retained);
    assertEquals(List.of("LostUpdate [A, B]", "WriteSkew [C, D]"), names(r));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
  }

  @Test
  void shouldReportAStaleReadBeyondTheHorizonAsAnSserViolationWhenRealTimeProvesIt() {
    // Given: W2 overwrote x=1 and ended at 40; both writers are pruned (time horizon 100 µs);
    // R starts at 5000 and reads x=1
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(GRACE)
        .withHorizon(Horizon.ofMicros(100)));
    final List<Transaction> t = txns("""
        W1 s1 r(x,0) w(x,1) @10..20
        W2 s2 r(x,1) w(x,2) @30..40
        """ + fillers("f", 40, 100, 1) + """
        R s3 r(x,1) @5000..5010
        """ + fillers("g", 5, 6_000, 41));

    // When
    t.forEach(c::accept);
    c.flush();
    final CheckResult r = c.result();

    // Then: counted, typed, SSER proven by real time, SER and SI undecided (the unsegmented engine
    // finds SER and SI satisfied: R may be serialised before W2)
    assertEquals(1, c.staleReads());
    final Finding stale = finding(r, FindingKind.STALE_READ_BEYOND_HORIZON);
    assertEquals(1, stale.count());
    assertEquals(List.of("R"), stale.txns());
    assertEquals(EnumSet.of(Level.SER, Level.SI), stale.levels());
    assertEquals(List.of("StaleReadBeyondHorizon [R]"), names(r));
    assertEquals(EnumSet.of(Level.SSER), r.anomalies().get(0).violates());
    assertEquals(Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.UNKNOWN, Level.SI, Verdict.UNKNOWN),
        r.verdicts());
    assertTrue(r.reasons().get(Level.SER).contains("older than the retained horizon"), r.reasons().toString());
    final io.isowatch.core.history.History.Builder all = io.isowatch.core.history.History.builder();
    t.forEach(all::add);
    final CheckResult whole = OnlineChecker.check(all.build(), OPTIONS);
    assertEquals(Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        whole.verdicts());
  }

  @Test
  void shouldLeaveEveryLevelUndecidedWhenAStaleReadStartedBeforeTheOverwriteEnded() {
    // Given: R starts at 35, before W2 (the overwrite of x=1) ended at 40, and ends much later
    final OnlineChecker c = segmented(Horizon.ofTransactions(5));
    final List<Transaction> t = txns("""
        W1 s1 r(x,0) w(x,1) @10..20
        W2 s2 r(x,1) w(x,2) @30..40
        """ + fillers("f", 30, 100, 1) + """
        R s3 r(x,1) @35..5000
        """ + fillers("g", 12, 6_000, 31));

    // When
    t.forEach(c::accept);
    c.flush();
    final CheckResult r = c.result();

    // Then: reported, not an anomaly, every level UNKNOWN
    assertEquals(1, c.staleReads());
    assertEquals(Level.CLASSIC, finding(r, FindingKind.STALE_READ_BEYOND_HORIZON).levels());
    assertEquals(List.of(), names(r));
    assertEquals(Map.of(Level.SSER, Verdict.UNKNOWN, Level.SER, Verdict.UNKNOWN, Level.SI, Verdict.UNKNOWN),
        r.verdicts());
  }

  @Test
  void shouldStillReportThinAirWhenTheValueWasNeverWrittenAfterCuts() {
    // Given
    final OnlineChecker c = segmented(Horizon.ofTransactions(5));
    final List<Transaction> t = txns("""
        W1 s1 r(x,0) w(x,1) @10..20
        """ + fillers("f", 30, 100, 1) + """
        R s3 r(x,77) @5000..5010
        """ + fillers("g", 12, 6_000, 31));

    // When
    t.forEach(c::accept);
    c.flush();
    final CheckResult r = c.result();

    // Then
    assertTrue(c.cuts() >= 1);
    assertEquals(0, c.staleReads());
    assertEquals(List.of("ThinAirRead [R]"), names(r));
  }

  @Test
  void shouldAttributeReadsOfTheFrontierAndFindLostUpdatesOnItAfterACut() {
    // Given: x=2 is the latest version when its writer is pruned; R reads it, A and B both
    // overwrite it
    final OnlineChecker c = segmented(Horizon.ofTransactions(5));
    final List<Transaction> t = txns("""
        W1 s1 r(x,0) w(x,1) @10..20
        W2 s2 r(x,1) w(x,2) @30..40
        """ + fillers("f", 30, 100, 1) + """
        R s3 r(x,2) @5000..5010
        A s4 r(x,2) w(x,3) @5020..5030
        B s5 r(x,2) w(x,4) @5040..5050
        """ + fillers("g", 12, 6_000, 31));

    // When
    t.forEach(c::accept);
    c.flush();
    final CheckResult r = c.result();

    // Then
    assertEquals(0, c.staleReads());
    assertEquals(List.of("LostUpdate [A, B]"), names(r));
    assertTrue(r.findings().stream().noneMatch(f -> f.kind() == FindingKind.STALE_READ_BEYOND_HORIZON));
  }

  @Test
  void shouldReportValidHistoriesSatisfiedAndInventNoSeqGapAcrossCuts() {
    // Given: one session with seq 0..39 and reads of the latest values, then a real gap (41)
    final StringBuilder text = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      text.append("T").append(i).append(" s1 r(x,").append(i).append(") w(x,").append(i + 1).append(") @")
          .append(100 * i + 10).append("..").append(100 * i + 20).append(" seq=").append(i).append('\n');
    }
    text.append("T41 s1 r(x,40) w(x,41) @9000..9010 seq=41\n");
    final OnlineChecker c = segmented(Horizon.ofTransactions(4));

    // When
    txns(text.toString()).forEach(c::accept);
    c.flush();
    final CheckResult r = c.result();

    // Then: satisfied, one gap (40) reported, none invented at the cuts
    assertTrue(c.cuts() >= 3, "cuts: " + c.cuts());
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        r.verdicts());
    final List<Finding> gaps = r.findings().stream().filter(f -> f.kind() == FindingKind.SEQ_GAP).toList();
    assertEquals(1, gaps.size(), gaps.toString());
    assertEquals(List.of("T41"), gaps.get(0).txns());
    assertEquals(41, r.stats().transactions());
    assertTrue(finding(r, FindingKind.HORIZON_PRUNED).message().contains("transactions were pruned"));
  }

  @Test
  void shouldCutOnlyRightBeforeASnapshotTransactionWhenCutsAreAlignedOnSnapshots() {
    // Given: horizon 2 aligned on snapshots; 10 writers, then S reads every key, then 10 more
    final OnlineChecker c = segmented(Horizon.ofTransactions(2).withSnapshots(true));
    final StringBuilder before = new StringBuilder();
    final StringBuilder read = new StringBuilder("S snap");
    for (int i = 0; i < 10; i++) {
      before.append("W").append(i).append(" s").append(i).append(" r(k").append(i).append(",0) w(k").append(i)
          .append(",1) @").append(100 * i + 10).append("..").append(100 * i + 20).append('\n');
      read.append(" r(k").append(i).append(",1)");
    }
    read.append(" @2000..2010\n");

    // When: nothing can be cut before the snapshot; after it, the cut is right before it
    txns(before.toString()).forEach(c::accept);
    final long cutsBefore = c.cuts();
    c.prune();
    final long cutsAfterPrune = c.cuts();
    txns(read + fillers("g", 10, 3_000, 100)).forEach(c::accept);
    c.flush();
    c.prune();

    // Then
    assertEquals(0, cutsBefore);
    assertEquals(0, cutsAfterPrune);
    assertTrue(c.cuts() >= 1);
    assertEquals(10, c.prunedTransactions());
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        c.result().verdicts());
  }

  @Test
  void shouldNotReportAThinAirReadAgainWhenACutReplaysItsReaderAfterAFlush() {
    // Given: a grace period longer than the history, so that only flushes release; R's read of
    // x=77 is reported as thin air by the first flush, and R is retained by the cut that follows
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000_000)
        .withHorizon(Horizon.ofTransactions(10)));
    txns(fillers("f", 20, 100, 1) + "R r r(x,77) @2000..2010\n" + fillers("g", 3, 3_000, 30)).forEach(c::accept);
    c.flush();

    // When: the flush released 24 transactions, twice the horizon, so it cut (R is retained)
    final long cuts = c.cuts();
    txns(fillers("h", 2, 5_000, 40)).forEach(c::accept);
    c.flush();

    // Then
    assertEquals(1, cuts);
    assertEquals(Map.of("ThinAirRead", 1L), c.result().stats().anomaliesByName());
    assertEquals(List.of("ThinAirRead [R]"), names(c.result()));
  }

  @Test
  void shouldCutByItselfAtTheConfiguredNumberOfHorizonsAndFindTheSameAnomalies() {
    // Given: 6,000 generated transactions with lost updates and write skews spread over them,
    // horizon 100 transactions, self-cuts at 2 (the default) and at 4 horizons
    final List<Transaction> t = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(5)
        .withTransactions(6_000).withSessions(8).withKeys(60).withInjectAt(0.3)
        .withInjections(Injection.parseList("LostUpdate:4,WriteSkew:3"))).transactions();
    // (generated transactions end ~5 µs apart: a grace of 2 ms keeps every read's writer in reach)
    final OnlineChecker twice = new OnlineChecker(OPTIONS, OnlineOptions.streaming(2_000)
        .withHorizon(Horizon.ofTransactions(100)));
    final OnlineChecker four = new OnlineChecker(OPTIONS, OnlineOptions.streaming(2_000)
        .withHorizon(Horizon.ofTransactions(100).withCutFactor(4)));

    // When: the most processed transactions each engine held after any arrival
    int mostTwice = 0;
    int mostFour = 0;
    for (final Transaction x : t) {
      twice.accept(x);
      four.accept(x);
      mostTwice = Math.max(mostTwice, twice.retainedTransactions() - twice.buffered());
      mostFour = Math.max(mostFour, four.retainedTransactions() - four.buffered());
    }
    twice.flush();
    four.flush();

    // Then: memory up to the factor's horizons, a third of the cuts, the same anomalies
    assertTrue(mostTwice <= 200 && mostTwice >= 150, "factor 2 held up to " + mostTwice);
    assertTrue(mostFour <= 400 && mostFour >= 350, "factor 4 held up to " + mostFour);
    assertTrue(four.cuts() * 2 < twice.cuts(), "cuts at 4: " + four.cuts() + ", at 2: " + twice.cuts());
    assertEquals(List.of("LostUpdate", "LostUpdate", "LostUpdate", "LostUpdate", "WriteSkew", "WriteSkew",
        "WriteSkew"), twice.result().anomalies().stream().map(Anomaly::name).sorted().toList());
    assertEquals(names(twice.result()).stream().sorted().toList(), names(four.result()).stream().sorted().toList());
    assertEquals(twice.result().verdicts(), four.result().verdicts());
  }

  @Test
  void shouldRefuseACutFactorOutsideItsRange() {
    final Horizon h = Horizon.ofTransactions(10);
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> h.withCutFactor(1.0));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> h.withCutFactor(Double.NaN));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> h.withCutFactor(65));
    assertEquals(2.0, h.cutFactor());
  }

  private static OnlineChecker segmented(final Horizon h) {
    return new OnlineChecker(OPTIONS, OnlineOptions.streaming(GRACE).withHorizon(h));
  }

  /** {@code n} unrelated valid read-modify-writes on their own keys, 50 µs apart from {@code from}. */
  private static String fillers(final String prefix, final int n, final long from, final int firstSession) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      final long start = from + 50L * i;
      b.append(prefix).append(i).append(" q").append(firstSession + i).append(" r(").append(prefix).append(i)
          .append(",0) w(").append(prefix).append(i).append(",1) @").append(start).append("..").append(start + 5)
          .append('\n');
    }
    return b.toString();
  }

  private static List<String> names(final CheckResult r) {
    final List<String> out = new ArrayList<>();
    for (final Anomaly a : r.anomalies()) {
      out.add(a.displayName() + " " + a.txnIds().stream().sorted().toList());
    }
    return out;
  }
}
