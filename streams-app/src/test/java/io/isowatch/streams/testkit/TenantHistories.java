package io.isowatch.streams.testkit;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Generated histories of {@code tenant-0 … tenant-(n-1)} with injected anomalies (two lost updates,
 * a write skew and a fractured read each), and the ids of the anomalies the batch checker finds in
 * them: what a streaming test must see published exactly once.
 *
 * @param histories each tenant's events, in history order
 * @param expected the anomalies' ids, as {@code id} names them
 */
public record TenantHistories(List<List<TransactionEvent>> histories, Set<String> expected) {
  /** The anomalies every history has injected. */
  public static final String INJECTIONS = "LostUpdate:2,WriteSkew:1,FracturedRead:1";

  public TenantHistories {
    histories = List.copyOf(histories);
    expected = Collections.unmodifiableSet(new TreeSet<>(expected));
  }

  /**
   * Tenant {@code i}: seed {@code seed + i}, {@code transactions} transactions in 6 sessions over 40
   * keys, injections at {@code injectFrom + injectSpan * i / tenants} of its history (so that
   * tenants' anomalies come at different times).
   *
   * @param id the anomaly's id as the test reads it back (anomalyId or uniqueId) from the tenant and
   *     the batch checker's anomaly
   */
  public static TenantHistories generate(final int tenants, final long seed, final int transactions,
      final double injectFrom, final double injectSpan, final BiFunction<String, Anomaly, String> id) {
    final Set<String> expected = new TreeSet<>();
    final List<List<TransactionEvent>> histories = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      final String tenant = "tenant-" + i;
      final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
          .withSeed(seed + i).withTransactions(transactions).withSessions(6).withKeys(40)
          .withInjectAt(injectFrom + injectSpan * i / tenants)
          .withInjections(Injection.parseList(INJECTIONS)));
      final List<TransactionEvent> events = h.transactions().stream().map(t -> TransactionEvents.fromCore(tenant, t))
          .toList();
      histories.add(events);
      // The events' round trip, not h: what the checker will see is what the events say.
      OnlineChecker.check(new History(events.stream().map(TransactionEvents::toCore).toList()),
          CheckOptions.defaults()).anomalies().forEach(a -> expected.add(id.apply(tenant, a)));
    }
    return new TenantHistories(histories, expected);
  }

  /** The length of the longest history. */
  public int longest() {
    return histories.stream().mapToInt(List::size).max().orElse(0);
  }
}
