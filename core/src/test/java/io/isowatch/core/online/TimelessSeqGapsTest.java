package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A history without times whose seq numbers are not 0..n-1 per session (a client that numbers its
 * transactions with gaps, e.g. by a global counter): {@code check} and the stream rank a
 * transaction in its session alike (by seq), so they process in the same order π, which
 * interleaves timeless sessions by rank ({@link PiOrder}), and name the same cycles, not only the
 * same verdicts and counts.
 */
class TimelessSeqGapsTest {
  private static final CheckOptions SER_SI = CheckOptions.defaults().withLevels(Set.of(Level.SER, Level.SI))
      .withMaxAnomalies(10_000);

  @Test
  void shouldNameTheCyclesTheStreamNamesWhenSeqNumbersOfATimelessHistoryHaveGaps() {
    int anomalies = 0;
    for (final long seed : new long[] {1, 2, 3}) {
      // Given: a simulated SI database (write skews, read-only anomalies: cycles through many
      // sessions, so which one is named depends on the processing order); session i numbers its transactions i, i + (i + 1), i + 2 (i + 1), ...: the ranks by seq
      // interleave the sessions otherwise than the ranks by position
      final History gapped = withSeqGaps(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(seed)
          .withTransactions(2_000).withSessions(16).withKeys(20).withTimestamps(false)
          .withLevel(io.isowatch.core.gen.SimulatedLevel.SI)));
      // When
      final CheckResult checked = OnlineChecker.check(gapped, SER_SI);
      final OnlineChecker stream = new OnlineChecker(SER_SI, OnlineOptions.streaming(OnlineOptions.UNBOUNDED));
      gapped.transactions().forEach(stream::accept);
      stream.flush();
      final CheckResult streamed = stream.result();
      // Then
      assertEquals(streamed.verdicts(), checked.verdicts(), "seed " + seed);
      assertEquals(named(streamed), named(checked), "seed " + seed);
      anomalies += checked.anomalies().size();
    }
    assertTrue(anomalies > 10, "the comparison was about something: " + anomalies);
  }

  private static List<String> named(final CheckResult r) {
    final List<String> out = new ArrayList<>();
    for (final Anomaly a : r.anomalies()) {
      out.add(a.displayName() + " " + a.txnIds() + " " + a.cycle());
    }
    return out;
  }

  private static History withSeqGaps(final History h) {
    final Map<String, Integer> sessionIndex = new HashMap<>();
    final Map<String, Long> next = new HashMap<>();
    final List<Transaction> out = new ArrayList<>(h.size());
    for (final Transaction t : h.transactions()) {
      final int i = sessionIndex.computeIfAbsent(t.session(), s -> sessionIndex.size());
      final long seq = next.getOrDefault(t.session(), (long) i);
      next.put(t.session(), seq + i + 1);
      out.add(new Transaction(t.id(), t.session(), seq, t.status(), t.start(), t.end(), t.ops(), t.tenant(), t.level(),
          t.line()));
    }
    return new History(out);
  }
}
