package io.isowatch.streams.engine;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stand-in {@link TenantEngine} over the batch {@link Checker}: it re-checks every transaction
 * received so far on each arrival and reports the anomalies it has not reported before. Correct
 * but quadratic, and without the canonical processing order of docs/streaming-design.md: an
 * anomaly it reports early may be one the final batch check would list differently. It exists so
 * that the topology can be built and tested before the incremental engine
 * ({@code io.isowatch.core.online.OnlineChecker}) lands; it is not for production volumes.
 *
 * <p>Duplicates (same transaction id) are ignored, the first arrival wins.
 */
public final class RecheckingEngine implements TenantEngine {
  private final Checker checker;
  private final Map<String, Transaction> received = new LinkedHashMap<>();
  private final Set<String> reported = new HashSet<>();
  private CheckResult last;

  public RecheckingEngine(final CheckOptions options) {
    this.checker = new Checker(options.withMaxAnomalies(Integer.MAX_VALUE));
    this.last = checker.check(new History(List.of()));
  }

  @Override
  public List<Anomaly> accept(final Transaction transaction) {
    if (received.putIfAbsent(transaction.id(), transaction) != null) {
      return List.of();
    }
    last = checker.check(new History(List.copyOf(received.values())));
    final List<Anomaly> fresh = new ArrayList<>();
    for (final Anomaly a : last.anomalies()) {
      if (reported.add(identity(a))) {
        fresh.add(a);
      }
    }
    return fresh;
  }

  @Override
  public List<Anomaly> flush() {
    return List.of();
  }

  @Override
  public List<Anomaly> advanceTo(final long streamTimeMicros) {
    return List.of();
  }

  @Override
  public boolean hasPending() {
    // Nothing is buffered: every arrival is checked at once.
    return false;
  }

  @Override
  public CheckResult result() {
    return last;
  }

  @Override
  public long pendingReads() {
    return 0;
  }

  private static String identity(final Anomaly a) {
    return a.type() + '\0' + a.name() + '\0' + a.txnIds().stream().sorted().toList();
  }
}
