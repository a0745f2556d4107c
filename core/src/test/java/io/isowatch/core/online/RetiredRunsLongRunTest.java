package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A long generated stream under deliberately tiny limits (docs/segmentation.md, "Retired
 * versions"; issue 10, item 1): hundreds of cuts, filters capped at 1 KiB bits, and the run-sets
 * stay flat, so that a thin-air read injected at 99.9% is still a ThinAirRead with SER and SI
 * VIOLATED and a genuine stale read at the end is still a STALE_READ_BEYOND_HORIZON, stated as fact.
 */
class RetiredRunsLongRunTest {
  private static final int TRANSACTIONS = Integer.getInteger("isowatch.retired.longrun", 200_000);
  private static final int KEYS = 40;
  private static final int SESSIONS = 8;

  @Test
  void shouldKeepTheRunsFlatAndNameTheLateThinAirReadWhenLimitsAreTinyOverManyCuts() throws IOException {
    // Given
    final Horizon horizon = Horizon.ofTransactions(300).withFilters(64, 1 << 10)
        .withMaxRunBytes(4_096L * RetiredRuns.BYTES_PER_RUN);
    final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults().withMaxAnomalies(1_000),
        OnlineOptions.streaming(1_000).withHorizon(horizon));
    final long[] runsAt = new long[4];
    final long[] accepted = {0};
    final long[] lastEnd = {0};
    final GeneratorConfig config = GeneratorConfig.defaults().withSeed(77).withTransactions(TRANSACTIONS)
        .withSessions(SESSIONS).withKeys(KEYS).withInjections(Injection.parseList("ThinAirRead:1"))
        .withInjectAt(0.999);

    // When: the stream, sampling the runs at each quarter
    MtHistoryGenerator.generate(config, t -> {
      engine.accept(t);
      lastEnd[0] = Math.max(lastEnd[0], t.end());
      final long n = ++accepted[0];
      if (n % (TRANSACTIONS / 4) == 0) {
        runsAt[(int) (n / (TRANSACTIONS / 4)) - 1] = engine.summary().allRuns.runs();
      }
    });
    // ... then a genuine stale read: key 0's first value, overwritten and pruned long ago
    final String key = firstWrittenKey(config);
    final List<OnlineEvent> events = new java.util.ArrayList<>(engine.accept(new Transaction("stale-1",
        "stale-reader", 0, TxnStatus.COMMITTED, lastEnd[0] + 10, lastEnd[0] + 20, List.of(Op.read(key, 1L)), null,
        null, 0)));
    events.addAll(engine.flush());
    final CheckResult r = engine.result();

    // Then: flat runs, far below the versions retired
    final long retired = engine.retiredVersions();
    assertTrue(retired > TRANSACTIONS / 2, retired + " versions retired");
    // Every retired version in one run per key, at every quarter: flat.
    for (final long runs : runsAt) {
      assertTrue(runs > 0 && runs <= KEYS + 1, "runs of all retired versions: " + java.util.Arrays.toString(runsAt));
    }
    // The other category's runs grow only with its rare versions (a version with no pruned successor
    // replaced as a key's frontier), at most one run each.
    final HorizonSummary h = engine.summary();
    assertTrue(h.otherRuns.runs() <= h.otherRuns.taken() && h.otherRuns.taken() < retired / 1_000,
        h.otherRuns.runs() + " runs for " + h.otherRuns.taken() + " versions of the other category");
    assertEquals(engine.retiredRuns(), h.allRuns.runs() + h.otherRuns.runs());
    assertEquals(0.0, engine.retiredFalsePositiveRatio(), "the filters took versions");
    // ... the thin-air read at 99.9% named as such, and its levels violated
    assertTrue(r.anomalies().stream().anyMatch(a -> "ThinAirRead".equals(a.name())), names(r));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    assertTrue(r.findings().stream().noneMatch(f -> f.kind() == FindingKind.RETIRED_FILTER_SATURATED));
    // ... and the stale read a stale read, stated as fact
    final List<String> stale = events.stream().filter(e -> e instanceof OnlineEvent.FindingPublished f
            && f.kind() == FindingKind.STALE_READ_BEYOND_HORIZON && "stale-1".equals(f.txn()))
        .map(e -> ((OnlineEvent.FindingPublished) e).message()).toList();
    assertEquals(1, stale.size(), "stale-read findings of stale-1: " + stale);
    assertTrue(stale.get(0).contains("the exact record of retired versions shows"), stale.get(0));
    assertTrue(r.anomalies().stream().noneMatch(a -> "ThinAirRead".equals(a.name())
        && a.transactions().get(0).id().equals("stale-1")), "the stale read was named ThinAirRead");
  }

  private static String names(final CheckResult r) {
    return r.anomalies().stream().map(Anomaly::displayName).toList().toString();
  }

  /** The name of a key the generator writes (its first write's key). */
  private static String firstWrittenKey(final GeneratorConfig config) throws IOException {
    final String[] key = {null};
    MtHistoryGenerator.generate(config.withTransactions(50), t -> {
      for (final Op op : t.ops()) {
        if (key[0] == null && op.isWrite() && op.value() == 1L) {
          key[0] = op.key();
        }
      }
    });
    return key[0];
  }
}
