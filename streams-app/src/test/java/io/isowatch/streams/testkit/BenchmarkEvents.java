package io.isowatch.streams.testkit;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.util.ArrayList;
import java.util.List;

/** The input of the throughput benchmarks (docs/benchmarks.md). */
public final class BenchmarkEvents {
  private BenchmarkEvents() {}

  /**
   * Tenants {@code bench-0 … bench-(n-1)}, tenant {@code i} a generated history of seed {@code 7 + i}
   * with {@code perTenant} transactions in 20 sessions over 1,000 keys and {@code injections}
   * (e.g. {@code LostUpdate:3}); one tenant after the other, each in history order.
   */
  public static List<TransactionEvent> generate(final int tenants, final long perTenant, final String injections) {
    final List<TransactionEvent> events = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      final String tenant = "bench-" + i;
      MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(7 + i).withTransactions(perTenant)
              .withSessions(20).withKeys(1_000).withInjections(Injection.parseList(injections)))
          .transactions().forEach(t -> events.add(TransactionEvents.fromCore(tenant, t)));
    }
    return events;
  }
}
