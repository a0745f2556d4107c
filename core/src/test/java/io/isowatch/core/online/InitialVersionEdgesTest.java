package io.isowatch.core.online;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.format.ElleHistoryReader;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 1: a read of a key's initial version precedes every writer of the key in every
 * version order, blind writers included. The two histories of the issue, offline (batch checker
 * and the online engine's {@link OnlineChecker#check}) and streamed in every arrival order, with
 * the writer arriving before and after the read, released at once or held and flushed.
 */
class InitialVersionEdgesTest {
  private static final Set<Level> ALL = Level.CLASSIC;

  /** Elle's initial-state G-single: p0 [r x nil][r y 1], p1 [w y 1][w x 2]; keys start absent. */
  private static final String ELLE_G_SINGLE = """
      {:index 0, :time 1000, :type :invoke, :process 0, :f :txn, :value [[:r :x nil] [:r :y nil]]}
      {:index 1, :time 2000, :type :invoke, :process 1, :f :txn, :value [[:w :y 1] [:w :x 2]]}
      {:index 2, :time 3000, :type :ok, :process 1, :f :txn, :value [[:w :y 1] [:w :x 2]]}
      {:index 3, :time 4000, :type :ok, :process 0, :f :txn, :value [[:r :x nil] [:r :y 1]]}
      """;

  /** seq numbers, so that session order does not depend on the arrival order. */
  private static final String SESSION_BLIND_THEN_INITIAL = """
      T1 s1 w(x,1) seq=1
      T2 s1 r(x,0) seq=2
      """;

  @Test
  void shouldViolateEveryLevelWhenASessionReadsTheInitialValueAfterItsBlindWrite() {
    // Given
    final History h = history(SESSION_BLIND_THEN_INITIAL);
    final CheckOptions options = CheckOptions.defaults();

    // When
    final List<CheckResult> results = everyWay(h, options);

    // Then
    for (final CheckResult r : results) {
      assertAllViolatedBy(r, "G-single-process", "SessionGuaranteeViolation");
    }
  }

  @Test
  void shouldFindGSingleWhenElleInitialStateHistoryIsChecked() throws Exception {
    // Given
    final History h = new ElleHistoryReader().read(new StringReader(ELLE_G_SINGLE));
    final CheckOptions options = CheckOptions.defaults().withInitialValue(null);

    // When
    final List<CheckResult> results = everyWay(h, options);

    // Then
    for (final CheckResult r : results) {
      assertAllViolatedBy(r, "G-single", "FracturedRead");
      assertTrue(r.anomalies().get(0).explanation().contains(
          "x=null, the initial value of x; every version order puts the initial version first"),
          () -> r.anomalies().get(0).explanation());
    }
  }

  @Test
  void shouldAddTheEdgeWhenTheBlindWriterArrivesLongAfterTheReadOfTheInitialValue() {
    // Given: Elle's G-single with the reader first, released and processed as soon as 50 unrelated
    // transactions move the watermark past it, then the blind writer, which overlaps the reader in
    // time and ends last (no grace; the read of y=1 may wait for its writer for a second)
    final StringBuilder text = new StringBuilder("T1 p0 r(x,null) r(y,1) @10..20\n");
    for (int i = 0; i < 50; i++) {
      text.append("U").append(i).append(" u").append(i).append(" r(z").append(i).append(",null) w(z").append(i)
          .append(",1) @").append(30 + 10 * i).append("..").append(35 + 10 * i).append('\n');
    }
    final History before = history(text.toString());
    final Transaction writer = history("T2 p1 w(y,1) w(x,2) @15..600").transactions().get(0);
    final OnlineChecker oc = new OnlineChecker(CheckOptions.defaults().withInitialValue(null),
        OnlineOptions.streaming(0).withAbsence(1_000_000));
    before.transactions().forEach(oc::accept);
    final List<Anomaly> anomaliesBefore = oc.result().anomalies();

    // When: the writer, and one more transaction that moves the watermark past it
    final List<OnlineEvent> events = new ArrayList<>(oc.accept(writer));
    events.addAll(oc.accept(history("V v r(w,null) @700..710").transactions().get(0)));

    // Then: published when the writer came, without a flush
    assertEquals(List.of(), anomaliesBefore);
    assertEquals(1, oc.buffered(), "only the last transaction waits for the watermark");
    assertTrue(events.stream().anyMatch(e -> e instanceof OnlineEvent.AnomalyPublished), events::toString);
    final CheckResult r = oc.result();
    assertAllViolatedBy(r, "G-single", "FracturedRead");
    assertEquals(Set.of("T1", "T2"), Set.copyOf(r.anomalies().get(0).txnIds()));
  }

  @Test
  void shouldStillAddTheEdgeAfterACutWhenTheKeyStillStartsFromTheInitialValue() {
    // Given: ten unrelated transactions, the reader of x=0 (its read of y=1 waits for a writer),
    // twenty more, then a cut with a horizon of five: the first ten are pruned, x keeps its
    // initial version (nobody wrote x before the cut)
    final StringBuilder text = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      text.append("P").append(i).append(" q").append(i).append(" r(p").append(i).append(",0) w(p").append(i)
          .append(",1) @").append(1 + i).append("..").append(2 + i).append('\n');
    }
    text.append("T1 p0 r(x,0) r(y,1) @20..30\n");
    for (int i = 0; i < 20; i++) {
      text.append("U").append(i).append(" u").append(i).append(" r(z").append(i).append(",0) w(z").append(i)
          .append(",1) @").append(40 + 10 * i).append("..").append(45 + 10 * i).append('\n');
    }
    final OnlineChecker oc = new OnlineChecker(CheckOptions.defaults(),
        OnlineOptions.streaming(0).withAbsence(1_000_000).withHorizon(Horizon.ofTransactions(5)));
    history(text.toString()).transactions().forEach(oc::accept);
    oc.prune();
    final long cuts = oc.cuts();

    // When: the writer of y=1 and x=2, overlapping the reader in time, then one more transaction
    oc.accept(history("T2 p1 w(y,1) w(x,2) @25..600").transactions().get(0));
    oc.accept(history("V v r(w,0) @700..710").transactions().get(0));
    oc.flush();

    // Then
    assertTrue(cuts >= 1, "no cut was made");
    assertAllViolatedBy(oc.result(), "G-single", "FracturedRead");
  }

  @Test
  void shouldNotOrderAReadOfAFrontierValueBeforeABlindWriteWhenACutSeededIt() {
    // Given: B1's blind x=1 is pruned by a cut, so x=1 becomes the initial version of x in the next
    // segment; but a later blind write may come before it in the version order
    final StringBuilder text = new StringBuilder("B1 s0 w(x,1) @1..2\n");
    for (int i = 0; i < 10; i++) {
      text.append("P").append(i).append(" q").append(i).append(" r(p").append(i).append(",0) w(p").append(i)
          .append(",1) @").append(3 + i).append("..").append(4 + i).append('\n');
    }
    final OnlineChecker oc = new OnlineChecker(CheckOptions.defaults(),
        OnlineOptions.streaming(0).withHorizon(Horizon.ofTransactions(5)));
    history(text.toString()).transactions().forEach(oc::accept);
    oc.prune();
    final long cuts = oc.cuts();

    // When: B2 writes x=2 blindly, then its session reads x=1 (B2, B1, R is a serial order)
    history("""
        B2 s1 w(x,2) @100..110 seq=1
        R s1 r(x,1) @120..130 seq=2
        V v r(w,0) @200..210
        """).transactions().forEach(oc::accept);
    oc.flush();

    // Then: no cycle claimed; the open order of x leaves the levels UNKNOWN
    assertTrue(cuts >= 1, "no cut was made");
    final CheckResult r = oc.result();
    assertEquals(List.of(), r.anomalies());
    assertEquals(Map.of(Level.SSER, Verdict.UNKNOWN, Level.SER, Verdict.UNKNOWN, Level.SI, Verdict.UNKNOWN),
        r.verdicts(), r.reasons()::toString);
  }

  /** Batch checker, {@code check}, and a stream of each arrival order, released at once or flushed. */
  private static List<CheckResult> everyWay(final History h, final CheckOptions options) {
    final List<CheckResult> out = new ArrayList<>();
    out.add(new Checker(options).check(h));
    out.add(OnlineChecker.check(h, options));
    final List<Transaction> forward = h.transactions();
    final List<Transaction> backward = new ArrayList<>(forward);
    java.util.Collections.reverse(backward);
    for (final List<Transaction> order : List.of(forward, backward)) {
      for (final OnlineOptions online : List.of(OnlineOptions.streaming(0), new OnlineOptions(OnlineOptions.UNBOUNDED, true))) {
        final OnlineChecker oc = new OnlineChecker(options, online);
        order.forEach(oc::accept);
        oc.flush();
        out.add(oc.result());
      }
    }
    return out;
  }

  private static void assertAllViolatedBy(final CheckResult r, final String type, final String name) {
    assertEquals(Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.VIOLATED, Level.SI, Verdict.VIOLATED),
        r.verdicts(), () -> "anomalies " + r.anomalies());
    assertEquals(1, r.anomalies().size(), () -> "anomalies " + r.anomalies());
    final Anomaly a = r.anomalies().get(0);
    assertEquals(type, a.type(), a::toString);
    assertEquals(name, a.name(), a::toString);
    assertTrue(a.violates().containsAll(ALL), () -> "violates " + a.violates());
  }
}
