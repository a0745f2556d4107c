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
  private static final Set<Level> ALL = EnumSet.allOf(Level.class);

  /** Elle's initial-state G-single: p0 [r x nil][r y 1], p1 [w y 1][w x 2]; keys start absent. */
  private static final String ELLE_G_SINGLE = """
      {:index 0, :time 1000, :type :invoke, :process 0, :f :txn, :value [[:r :x nil] [:r :y nil]]}
      {:index 1, :time 2000, :type :invoke, :process 1, :f :txn, :value [[:w :y 1] [:w :x 2]]}
      {:index 2, :time 3000, :type :ok, :process 1, :f :txn, :value [[:w :y 1] [:w :x 2]]}
      {:index 3, :time 4000, :type :ok, :process 0, :f :txn, :value [[:r :x nil] [:r :y 1]]}
      """;

  private static final String SESSION_BLIND_THEN_INITIAL = """
      T1 s1 w(x,1)
      T2 s1 r(x,0)
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
    // Given: the read is released and processed first; many unrelated transactions follow
    final StringBuilder text = new StringBuilder("T2 s1 r(x,0) @10..20\n");
    for (int i = 0; i < 50; i++) {
      text.append("U").append(i).append(" u").append(i).append(" r(y").append(i).append(",0) w(y").append(i)
          .append(",1) @").append(30 + 10 * i).append("..").append(35 + 10 * i).append('\n');
    }
    final History h = history(text.toString());
    final Transaction writer = history("T1 s2 w(x,1) @1000..1010 seq=0").transactions().get(0);
    final Transaction sessionSuccessor = history("T3 s2 r(x,0) @1020..1030 seq=1").transactions().get(0);
    final OnlineChecker oc = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(0));
    h.transactions().forEach(oc::accept);

    // When: the blind writer, then a transaction of its own session that reads the initial value
    oc.accept(writer);
    final CheckResult beforeSuccessor = oc.result();
    oc.accept(sessionSuccessor);
    oc.flush();
    final CheckResult r = oc.result();

    // Then: T2 -RW-> T1 alone closes nothing; T1 -SO-> T3 -RW-> T1 does
    assertEquals(Map.of(Level.SSER, Verdict.UNKNOWN, Level.SER, Verdict.UNKNOWN, Level.SI, Verdict.UNKNOWN),
        beforeSuccessor.verdicts());
    assertAllViolatedBy(r, "G-single-process", "SessionGuaranteeViolation");
    assertEquals(List.of("T1", "T3"), r.anomalies().get(0).txnIds());
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
    assertEquals(ALL, a.violates());
  }
}
