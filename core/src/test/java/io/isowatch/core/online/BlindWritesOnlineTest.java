package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 3, online: {@link OnlineChecker#result()} searches the version orders that blind
 * writes leave open over the transactions processed so far, as {@code isowatch check} does over
 * the whole history, and leaves them UNKNOWN once a cut has pruned transactions.
 */
class BlindWritesOnlineTest {
  private static List<Transaction> txns(final String dsl) {
    return HistoryDsl.history(dsl).transactions();
  }

  @Test
  void shouldDecideSiAndSerWhenElleInitialStateG2ItemIsStreamed() {
    // Given
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults().withInitialValue(null),
        OnlineOptions.streaming(10));
    txns("""
        T1 p1 r(x,null) w(y,1) @10..20
        T2 p2 r(y,null) w(x,1) @15..25
        """).forEach(c::accept);

    // When
    c.flush();
    final CheckResult r = c.result();

    // Then
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SSER));
  }

  @Test
  void shouldDecideOverTheProcessedTransactionsWhenTheStreamIsNotFlushed() {
    // Given: two blind writers of x, serial in real time, then a session reads x=1 after both ended
    // (a stale read: SSER only), then x=2; a far later transaction keeps a reader of y waiting
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(10));
    final List<Transaction> t = txns("""
        T1 s1 w(x,1) @10..20
        T2 s2 w(x,2) @30..40
        T3 s3 r(x,1) @50..60
        T4 s3 r(x,2) @70..80
        T5 s4 w(y,1) @5000..5010
        """);

    // When: the last one arrives and releases the first four; it stays buffered
    t.forEach(c::accept);
    final CheckResult mid = c.result();

    // Then: over T1..T4, x=1 then x=2 is the order without an SO/WR/WW/RW cycle; real time
    // puts T2 before T3, which read the older x=1: every order closes a cycle through RT
    assertEquals(1, c.buffered());
    assertEquals(Verdict.SATISFIED, mid.verdicts().get(Level.SER), () -> mid.reasons().toString());
    assertEquals(Verdict.SATISFIED, mid.verdicts().get(Level.SI), () -> mid.reasons().toString());
    assertEquals(Verdict.VIOLATED, mid.verdicts().get(Level.SSER), () -> mid.reasons().toString());
    assertEquals("G-single-realtime", mid.anomalies().get(0).type());
  }

  @Test
  void shouldLeaveBlindWriteLevelsUnknownWhenACutHasPrunedTransactions() {
    // Given: a horizon of 3 transactions, so the engine cuts; blind writes on x throughout
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(),
        OnlineOptions.streaming(10).withHorizon(Horizon.ofTransactions(3)));
    final StringBuilder dsl = new StringBuilder();
    for (int i = 1; i <= 20; i++) {
      dsl.append("W").append(i).append(" s").append(i % 3).append(" w(x,").append(i).append(") @")
          .append(i * 100).append("..").append(i * 100 + 10).append('\n');
    }

    // When
    txns(dsl.toString()).forEach(c::accept);
    c.flush();
    final CheckResult r = c.result();

    // Then
    assertTrue(c.cuts() >= 1, "no cut was made");
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SER), r.reasons().toString());
  }
}
