package io.isowatch.core.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the engine said, in the short forms the core tests compare: anomalies as {@code
 * "ThinAirRead [R]"}, verdict changes as {@code "SER SATISFIED->VIOLATED"}, and the verdicts of the
 * three levels in one assertion.
 */
public final class Outcomes {
  private Outcomes() {}

  /** The transactions of a {@link HistoryDsl} history, in a list the test may change. */
  public static List<Transaction> txns(final String dsl) {
    return new ArrayList<>(HistoryDsl.history(dsl).transactions());
  }

  /** Feeds every transaction of {@code dsl} to {@code c}, in order; what the calls returned. */
  public static List<OnlineEvent> acceptAll(final OnlineChecker c, final String dsl) {
    final List<OnlineEvent> events = new ArrayList<>();
    for (final Transaction t : txns(dsl)) {
      events.addAll(c.accept(t));
    }
    return events;
  }

  /** The anomalies published among {@code events}, as name and transactions. */
  public static List<String> published(final List<OnlineEvent> events) {
    return events.stream().filter(e -> e instanceof OnlineEvent.AnomalyPublished)
        .map(e -> ((OnlineEvent.AnomalyPublished) e).anomaly())
        .map(a -> a.displayName() + " " + a.txnIds()).toList();
  }

  /** The anomalies retracted among {@code events}, as name, transactions and the transaction that retracted them. */
  public static List<String> retracted(final List<OnlineEvent> events) {
    return events.stream().filter(e -> e instanceof OnlineEvent.AnomalyRetracted)
        .map(e -> (OnlineEvent.AnomalyRetracted) e)
        .map(r -> r.anomaly().displayName() + " " + r.anomaly().txnIds() + " by " + r.causeTxn()).toList();
  }

  /** The kinds of the findings published among {@code events}. */
  public static List<FindingKind> findings(final List<OnlineEvent> events) {
    return events.stream().filter(e -> e instanceof OnlineEvent.FindingPublished)
        .map(e -> ((OnlineEvent.FindingPublished) e).kind()).toList();
  }

  /** The verdict changes among {@code events}, as level, from and to. */
  public static List<String> verdictChanges(final List<OnlineEvent> events) {
    return events.stream().filter(e -> e instanceof OnlineEvent.VerdictChanged)
        .map(e -> (OnlineEvent.VerdictChanged) e).map(v -> v.level() + " " + v.from() + "->" + v.to()).toList();
  }

  /** The anomalies of a result, as name and transactions. */
  public static List<String> names(final CheckResult r) {
    return r.anomalies().stream().map(a -> a.displayName() + " " + a.txnIds()).toList();
  }

  /** The first finding of {@code kind}; fails when there is none. */
  public static Finding finding(final CheckResult r, final FindingKind kind) {
    return r.findings().stream().filter(f -> f.kind() == kind).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " finding in " + r.findings()));
  }

  /** The verdicts of SSER, SER and SI, in that order, with the anomalies in the failure message. */
  public static void assertVerdicts(final CheckResult r, final Verdict sser, final Verdict ser, final Verdict si) {
    assertEquals(Map.of(Level.SSER, sser, Level.SER, ser, Level.SI, si), r.verdicts(),
        () -> "verdicts; anomalies were " + r.anomalies());
  }
}
