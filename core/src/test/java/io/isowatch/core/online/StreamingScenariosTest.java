package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.acceptAll;
import static io.isowatch.core.testkit.Outcomes.assertVerdicts;
import static io.isowatch.core.testkit.Outcomes.finding;
import static io.isowatch.core.testkit.Outcomes.names;
import static io.isowatch.core.testkit.Outcomes.published;
import static io.isowatch.core.testkit.Outcomes.txns;
import static io.isowatch.core.testkit.Outcomes.verdictChanges;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The incremental engine in stream time: what each {@link OnlineChecker#accept} publishes, and
 * when, as the watermark releases transactions (reads before their writers, indeterminate
 * writers promoted either way round, ThinAirRead only after the grace period, late and repeated
 * arrivals).
 */
class StreamingScenariosTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults();

  @Test
  void shouldReportThinAirReadOnlyWhenTheGracePeriodHasPassedInStreamTime() {
    // Given: R reads x=5, which nobody writes; grace 100 µs
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        A s2 r(y,0) w(y,1) @30..150
        B s3 r(z,0) w(z,1) @200..300
        """);

    // When
    final List<OnlineEvent> afterR = c.accept(t.get(0));
    final List<OnlineEvent> afterA = c.accept(t.get(1));
    final List<OnlineEvent> afterB = c.accept(t.get(2));
    final List<OnlineEvent> afterFlush = c.flush();

    // Then: A's arrival releases R (its read waits); B's releases A, whose end is more than the
    // grace period past R's: only then is the read from thin air
    assertEquals(List.of(), published(afterR));
    assertEquals(List.of(), published(afterA));
    assertEquals(List.of("ThinAirRead [R]"), published(afterB));
    assertEquals(List.of(), published(afterFlush));
    assertEquals(List.of("ThinAirRead [R]"), names(c.result()));
    assertVerdicts(c.result(), Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
  }

  @Test
  void shouldCountPendingReadsUntilTheirWriterArrives() {
    // Given: grace 100 µs; R reads x=5 and y=7 before anyone wrote them; W writes x=5
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));
    final List<Transaction> t = txns("""
        R s1 r(x,5) r(y,7) @10..20
        A s2 r(z,0) w(z,1) @30..200
        W s3 r(x,0) w(x,5) @5..110
        B s4 r(q,0) w(q,1) @2000..2100
        """);

    // When: A's arrival releases R (two reads wait); W's does not release W yet; B's releases W
    // (x=5 found) and then A, which takes the order past R's end plus the grace (y=7 expires)
    c.accept(t.get(0));
    c.accept(t.get(1));
    final int afterA = c.pendingReads();
    c.accept(t.get(2));
    final int afterW = c.pendingReads();
    c.accept(t.get(3));
    final int afterB = c.pendingReads();

    // Then
    assertEquals(2, afterA);
    assertEquals(2, afterW);
    assertEquals(0, afterB);
    assertEquals(List.of("ThinAirRead [R]"), names(c.result()));
  }

  @Test
  void shouldAttributeAReadToAWriterThatEndsAfterTheReaderWithinTheGracePeriod() {
    // Given: W's commit was acknowledged 90 µs after R ended; grace 100 µs
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));

    // When
    final List<OnlineEvent> events = acceptAll(c, """
        R s1 r(x,5) @10..20
        W s2 r(x,0) w(x,5) @5..110
        B s3 r(z,0) w(z,1) @200..400
        """);
    events.addAll(c.flush());

    // Then
    assertEquals(List.of(), published(events));
    assertVerdicts(c.result(), Verdict.SATISFIED, Verdict.SATISFIED, Verdict.SATISFIED);
  }

  @Test
  void shouldReportAbortedReadWhenTheWriterArrivesAfterTheReader() {
    // Given: grace 80 µs; Y's arrival releases R, which waits for x=1; the aborted W that wrote
    // it arrives next (within the grace period), and X's arrival releases it
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(80));
    final List<Transaction> t = txns("""
        R s1 r(x,1) @20..30
        Y s4 r(y,0) @110..120
        W s2 r(x,0) w(x,1) aborted @10..100
        X s3 r(z,0) w(z,1) @350..400
        """);
    c.accept(t.get(0));
    final List<OnlineEvent> releasesR = c.accept(t.get(1));
    c.accept(t.get(2));

    // When
    final List<OnlineEvent> releasesW = c.accept(t.get(3));

    // Then
    assertEquals(List.of(), published(releasesR));
    assertEquals(List.of("AbortedRead [W, R]"), published(releasesW));
    assertTrue(verdictChanges(releasesW).contains("SER SATISFIED->VIOLATED"), verdictChanges(releasesW)::toString);
    c.flush();
    assertEquals(List.of("AbortedRead [W, R]"), names(c.result()));
  }

  @Test
  void shouldReportIntermediateReadWhenTheWriterArrivesAfterTheReader() {
    // Given: as above, W overwrote its x=1 with x=2
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(80));

    // When
    final List<OnlineEvent> events = acceptAll(c, """
        R s1 r(x,1) @20..30
        Y s4 r(y,0) @110..120
        W s2 r(x,0) w(x,1) w(x,2) @10..100
        X s3 r(z,0) w(z,1) @350..400
        """);

    // Then: published before any flush
    assertEquals(List.of("IntermediateRead [W, R]"), published(events));
    assertVerdicts(c.result(), Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
  }

  @Test
  void shouldPromoteAnIndeterminateWriterWhenItsReaderArrivesAfterIt() {
    // Given: U is processed first and stays dormant; C reads its write
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(10));

    // When
    acceptAll(c, """
        U s1 r(x,0) w(x,1) r(y,null) unknown @10..20
        C s2 r(x,1) @30..40
        X s3 r(z,0) @100..200
        """);

    // Then: U counts, so its own read of an absent y (keys start at 0) is an anomaly
    final CheckResult r = c.result();
    assertEquals(1, r.stats().unknownPromoted());
    assertEquals(List.of("ThinAirRead [U]"), names(r));
    assertTrue(r.findings().stream().noneMatch(f -> f.kind() == FindingKind.UNKNOWN_IGNORED), r.findings()::toString);
  }

  @Test
  void shouldPromoteAnIndeterminateWriterWhenItsReaderArrivesBeforeIt() {
    // Given: C ends first and waits for x=1; U (ending later) wrote it
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));

    // When
    acceptAll(c, """
        C s2 r(x,1) @30..40
        U s1 r(x,0) w(x,1) unknown @10..90
        V s3 r(y,0) w(y,1) unknown @50..60
        X s4 r(z,0) @300..400
        """);

    // Then: U counts and C's read is attributed; V, which nobody read, is ignored
    final CheckResult r = c.result();
    assertEquals(List.of(), names(r));
    assertEquals(1, r.stats().unknownPromoted());
    assertEquals(1, r.stats().unknownIgnored());
    assertEquals(List.of("V"), finding(r, FindingKind.UNKNOWN_IGNORED).txns());
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
  }

  @Test
  void shouldPromoteAnIndeterminateWriterThatNeverEndedWithoutWaitingForAFlush() {
    // Given: U's client never saw it end; π places it by its start, so it is processed before C,
    // which read its write, rather than after every timed transaction
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));

    // When
    final List<OnlineEvent> events = acceptAll(c, """
        U s1 r(x,0) w(x,1) unknown @10..
        C s2 r(x,1) @20..30
        X s3 r(z,0) @400..500
        Y s4 r(y,0) @600..700
        """);

    // Then: no ThinAirRead, no late transaction, U promoted before any flush
    assertEquals(List.of(), published(events));
    final CheckResult r = c.result();
    assertEquals(1, r.stats().unknownPromoted());
    assertEquals(0, c.lateTransactions());
    assertVerdicts(r, Verdict.SATISFIED, Verdict.SATISFIED, Verdict.SATISFIED);
  }

  @Test
  void shouldOrderAPromotedWriterInRealTimeWhenItEndedBeforeTransactionsAlreadyChecked() {
    // Given: U (ended at 20) is promoted only when C is processed, after T2 (started at 30),
    // which still read the x that U had overwritten: a stale read, seen only through U's time
    // point joining the chain in the middle
    final String h = """
        U s1 r(x,0) w(x,1) unknown @10..20
        T2 s2 r(x,0) @30..40
        C s3 r(x,1) @50..100
        """;

    // When
    final CheckResult r = OnlineChecker.check(HistoryDsl.history(h), OPTIONS);

    // Then
    assertVerdicts(r, Verdict.VIOLATED, Verdict.SATISFIED, Verdict.SATISFIED);
    assertEquals(1, r.anomalies().size(), r.anomalies()::toString);
    assertEquals("G-single-realtime", r.anomalies().get(0).type());
    assertEquals(java.util.Set.of("U", "T2"), java.util.Set.copyOf(r.anomalies().get(0).txnIds()));
  }

  @Test
  void shouldReportALateTransactionAndStillCheckIt() {
    // Given: grace 10 µs; T2's arrival releases T1; T0 ended before T1 but comes after it
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(10));
    final List<Transaction> t = txns("""
        T1 s1 r(x,0) w(x,1) @90..100
        T2 s2 r(y,0) @150..200
        T0 s3 r(x,0) w(x,2) @40..50
        """);
    c.accept(t.get(0));
    c.accept(t.get(1));

    // When
    final List<OnlineEvent> late = c.accept(t.get(2));
    c.flush();

    // Then: reported, and checked all the same (T0 and T1 overwrote the same version)
    assertTrue(late.stream().anyMatch(e -> e instanceof OnlineEvent.FindingPublished f
        && f.kind() == FindingKind.LATE_TRANSACTION && f.txn().equals("T0")), late::toString);
    final Finding f = finding(c.result(), FindingKind.LATE_TRANSACTION);
    assertEquals(FindingKind.Severity.WARNING, f.kind().severity());
    assertEquals(List.of("T0"), f.txns());
    assertEquals(1, c.lateTransactions());
    assertEquals(List.of("LostUpdate [T1, T0]"), names(c.result()));
  }

  @Test
  void shouldReportAWriterAsLateWhenItsValueWasAlreadyReportedAsThinAir() {
    // Given: R's read of x=5 expires; W, which wrote 5 but ended long after R, comes later
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));

    // When
    acceptAll(c, """
        R s1 r(x,5) @10..20
        A s2 r(y,0) @30..150
        B s3 r(z,0) @200..300
        W s4 r(x,0) w(x,5) @5..290
        """);
    c.flush();

    // Then: late, and (since issue 10) the ThinAirRead it disproves is retracted: R read W's write
    final CheckResult r = c.result();
    assertEquals(List.of(), names(r));
    assertEquals(List.of("W"), finding(r, FindingKind.LATE_TRANSACTION).txns());
  }

  @Test
  void shouldIgnoreARetryAndReportAConflictingDuplicateWhenAnIdComesAgain() {
    // Given
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));
    final List<Transaction> t = txns("""
        T1 s1 r(x,0) w(x,1) @10..20
        T1 s1 r(x,0) w(x,1) @10..20
        T1 s1 r(x,0) w(x,7) @10..20
        """);

    // When
    t.forEach(c::accept);
    c.flush();

    // Then
    final CheckResult r = c.result();
    assertEquals(1, c.duplicatesIgnored());
    assertEquals(1, finding(r, FindingKind.DUPLICATE_TXN_ID).count());
    assertEquals(1, r.stats().committed());
    assertEquals(2, r.stats().transactions());
  }

  @Test
  void shouldPublishVerdictChangesWhenBlindWritesAndThenALostUpdateArrive() {
    // Given
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(0));
    final List<Transaction> t = txns("""
        B s1 w(y,9) @1..2
        T1 s2 r(x,0) w(x,1) @10..20
        T2 s3 r(x,0) w(x,2) @15..30
        Z s4 r(z,0) @40..50
        """);

    // When
    c.accept(t.get(0));
    final List<OnlineEvent> blind = c.accept(t.get(1));
    c.accept(t.get(2));
    final List<OnlineEvent> lost = c.accept(t.get(3));

    // Then
    assertEquals(List.of("SSER SATISFIED->UNKNOWN", "SER SATISFIED->UNKNOWN", "SI SATISFIED->UNKNOWN"), verdictChanges(blind));
    assertEquals(List.of("LostUpdate [T1, T2]"), published(lost));
    assertEquals(List.of("SSER UNKNOWN->VIOLATED", "SER UNKNOWN->VIOLATED", "SI UNKNOWN->VIOLATED"), verdictChanges(lost));
  }
}
