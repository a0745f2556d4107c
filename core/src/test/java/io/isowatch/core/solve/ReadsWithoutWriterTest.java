package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.report.DotWriter;
import io.isowatch.core.report.JsonReport;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 3: on a history with values written more than once, a read that no writer of its
 * value can explain (every writer aborted, overwrote the value itself, or is the reader writing it
 * later) is VIOLATED on every level with a typed anomaly about that read, whatever the other reads
 * took: no case split, no UNKNOWN.
 */
class ReadsWithoutWriterTest {
  /** Every level but MIXED, which these histories (no declared levels) make invalid input. */
  private static final Set<Level> LEVELS = EnumSet.complementOf(EnumSet.of(Level.MIXED));
  private static final CheckOptions OPTIONS = CheckOptions.defaults().withLevels(LEVELS);

  @Test
  void shouldViolateEveryLevelAndNameEachWriterWhenTheOnlyWritersAreAbortedOrIntermediate() throws Exception {
    // Given: x=3 is written by T2 (aborted) and by T4 (then overwritten with x=4); T1 and T3 write x=5
    // twice, so values of x are not unique and the engine cannot attribute reads of x
    final History h = HistoryDsl.history("""
        T1 s1 w(x,5)
        T2 s2 w(x,3) aborted
        T3 s3 w(x,5)
        T4 s4 w(x,3) w(x,4)
        T5 s5 r(x,3)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, OPTIONS);

    // Then
    for (final Level level : LEVELS) {
      assertEquals(Verdict.VIOLATED, r.verdicts().get(level), () -> level + " " + r.reasons());
    }
    assertTrue(r.reasons().isEmpty(), () -> r.reasons().toString());
    final Anomaly a = only(r, ReadsWithoutWriter.MIXED_NAME);
    assertEquals("G1a/G1b", a.type());
    assertEquals(new AnomalyRead("T5", 0, "x", 3L), a.read());
    assertEquals(List.of("T5", "T2", "T4"), a.txnIds());
    assertEquals(Level.strongestFirst(LEVELS), a.violates());
    assertTrue(a.cycle().isEmpty());
    assertTrue(a.explanation().startsWith("Let:\n  T5 = [r(x,3)] (session s5, committed, line 5)\n"), a.explanation());
    assertTrue(a.explanation().contains("  T2 = [w(x,3)] (session s2, aborted, line 2)\n"), a.explanation());
    assertTrue(a.explanation().contains("Then:\n  - T5 read x=3, and 3 is not the initial value (0);\n"
        + "  - the only transactions that wrote x=3 are T2 (aborted) and T4 (x=3 is not its last write of x);\n"),
        a.explanation());
    assertTrue(a.explanation().endsWith("(G1a/G1b, NoPossibleWriter)"), a.explanation());

    // Then: --json carries the type, name and read; --dot the reader and both writers, with the explanation
    final JsonNode json = JsonReport.toTree(r).get("anomalies").get(0);
    assertEquals("G1a/G1b", json.get("type").asText());
    assertEquals("NoPossibleWriter", json.get("name").asText());
    assertEquals("T5", json.get("read").get("txn").asText());
    assertEquals(3, json.get("read").get("value").asLong());
    final String dot = DotWriter.render(1, a);
    assertTrue(dot.contains("\"T5\" [label=") && dot.contains("\"T2\" [label=") && dot.contains("\"T4\" [label="), dot);
    assertTrue(dot.contains("NoPossibleWriter (G1a/G1b) violates"), dot);
    assertEquals("anomaly-001-NoPossibleWriter.dot", DotWriter.fileName(1, a));
  }

  @Test
  void shouldCallItAFutureReadAndAnAbortedReadWhenTheReaderWritesTheValueLaterAndAnAbortedTransactionDid() {
    // Given
    final History h = HistoryDsl.history("""
        T1 s1 w(x,3) aborted
        T2 s2 r(x,3) w(x,3)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, OPTIONS);

    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.RC));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    final Anomaly a = only(r, ReadsWithoutWriter.MIXED_NAME);
    assertEquals("G1a/internal", a.type());
    assertTrue(a.explanation().contains("are T1 (aborted) and T2 (the reader itself, which wrote x=3 only after "
        + "reading it)"), a.explanation());
  }

  @Test
  void shouldReportTheEnginesAbortedReadWhenEveryWriterOfTheValueAborted() {
    // Given: two aborted writers of x=3
    final History h = HistoryDsl.history("""
        T1 s1 w(x,3) aborted
        T2 s2 w(x,3) aborted
        T3 s3 r(x,3)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, OPTIONS);

    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    final Anomaly a = only(r, "AbortedRead");
    assertEquals("G1a", a.type());
    assertTrue(a.explanation().contains("are T1 (aborted) and T2 (aborted)"), a.explanation());
  }

  @Test
  void shouldReportAThinAirReadOnceWhenNobodyWroteTheValueOfAKeyWithValuesWrittenTwice() {
    // Given: x=1 written twice, x=9 never (the engine reports that read itself: it is not reported twice)
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1)
        T2 s2 w(x,1)
        T3 s3 r(x,9)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, OPTIONS);

    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    final Anomaly a = only(r, "ThinAirRead");
    assertEquals("thin-air", a.type());
    assertEquals(new AnomalyRead("T3", 0, "x", 9L), a.read());
    assertTrue(a.explanation().contains("the value came from thin air"), a.explanation());
  }

  @Test
  void shouldSearchTheCasesAsBeforeWhenOneWriterOfTheValueIsCommittedLast() {
    // Given: x=3 written by an aborted T1 and, last, by the committed T2: T3 read it from T2
    final History h = HistoryDsl.history("""
        T1 s1 w(x,3) aborted
        T2 s2 w(x,3)
        T4 s4 w(x,3)
        T3 s3 r(x,3)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then: no read anomaly; SER and SI hold
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER), () -> r.reasons().toString());
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
    assertTrue(r.anomalies().isEmpty(), () -> r.anomalies().toString());
  }

  @Test
  void shouldReportTheSameWhenTheHistoryIsStreamed() {
    // Given
    final History h = HistoryDsl.history("""
        T1 s1 w(x,5)
        T2 s2 w(x,3) aborted
        T3 s3 w(x,5)
        T4 s4 w(x,3) w(x,4)
        T5 s5 r(x,3)
        """);
    final OnlineChecker stream = new OnlineChecker(CheckOptions.defaults(),
        new io.isowatch.core.online.OnlineOptions(io.isowatch.core.online.OnlineOptions.UNBOUNDED, true));
    h.transactions().forEach(stream::accept);

    // When
    stream.flush();
    final CheckResult r = stream.result();

    // Then
    for (final Level level : Level.CLASSIC) {
      assertEquals(Verdict.VIOLATED, r.verdicts().get(level), level::name);
    }
    assertEquals("G1a/G1b", only(r, ReadsWithoutWriter.MIXED_NAME).type());
  }

  private static Anomaly only(final CheckResult r, final String name) {
    final List<Anomaly> named = r.anomalies().stream().filter(a -> name.equals(a.name())).toList();
    assertEquals(1, named.size(), () -> "anomalies: " + r.anomalies());
    return named.get(0);
  }
}
