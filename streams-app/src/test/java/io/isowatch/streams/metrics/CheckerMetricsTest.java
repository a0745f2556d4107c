package io.isowatch.streams.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.isowatch.core.check.Level;
import io.isowatch.streams.PromisedLevels;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckerMetricsTest {
  private static final String[] TENANT = {"tenant"};

  @Test
  void shouldKeepEachTenantsSeriesApartWhenTenantsInterleave() {
    // Given
    final CheckerMetrics metrics = new CheckerMetrics(PromisedLevels.parse(List.of("acme:SER")));

    // When: the per-tenant children are reused across calls of both tenants
    metrics.transactionChecked("acme");
    metrics.transactionChecked("zeta");
    metrics.transactionChecked("acme");
    metrics.tenantState("acme", 3, 1, 42);
    metrics.tenantState("zeta", 0, 5, 7);
    metrics.tenantState("acme", 4, 2, 43);
    metrics.retained("zeta", 11);
    metrics.pruned("acme", 0.01, 5, 9);
    metrics.arrived("acme", 2_000_000L);
    metrics.arrived("zeta", 0);
    metrics.arrived("zeta", 0);

    // Then
    assertEquals(2.0, value(metrics, MetricNames.TRANSACTIONS_CHECKED_TOTAL, "acme"));
    assertEquals(1.0, value(metrics, MetricNames.TRANSACTIONS_CHECKED_TOTAL, "zeta"));
    assertEquals(4.0, value(metrics, MetricNames.PENDING_READS, "acme"));
    assertEquals(2.0, value(metrics, MetricNames.BUFFERED_TRANSACTIONS, "acme"));
    assertEquals(43.0, value(metrics, MetricNames.STATE_TRANSACTIONS, "acme"));
    assertEquals(5.0, value(metrics, MetricNames.BUFFERED_TRANSACTIONS, "zeta"));
    assertEquals(9.0, value(metrics, MetricNames.RETAINED_TRANSACTIONS, "acme"));
    assertEquals(11.0, value(metrics, MetricNames.RETAINED_TRANSACTIONS, "zeta"));
    assertEquals(1.0, value(metrics, MetricNames.ARRIVAL_LATENESS_SECONDS + "_count", "acme"));
    assertEquals(2.0, value(metrics, MetricNames.ARRIVAL_LATENESS_SECONDS + "_count", "zeta"));
    assertEquals(2.0, value(metrics, MetricNames.ARRIVAL_LATENESS_SECONDS + "_sum", "acme"));
    assertEquals(1.0, metrics.sample(MetricNames.PROMISED_LEVEL, new String[] {"tenant", "level"},
        new String[] {"acme", "SER"}));
    assertNull(metrics.sample(MetricNames.PROMISED_LEVEL, new String[] {"tenant", "level"},
        new String[] {"zeta", "SER"}));
  }

  @Test
  void shouldCountALostUpdateAsBrokenForRepeatableReadAndAllowedForReadCommittedWhenTheirProfilesArePromised() {
    // Given: two tenants on PostgreSQL profiles; the checker decides SSER, SER and SI
    final CheckerMetrics metrics = new CheckerMetrics(PromisedLevels.parse(List.of(),
        List.of("pg-rr=postgres:repeatable-read", "pg-rc=postgres:read-committed")),
        EnumSet.of(Level.SSER, Level.SER, Level.SI));
    metrics.transactionChecked("pg-rr");
    metrics.transactionChecked("pg-rc");
    // When: each publishes the same lost update
    for (final String tenant : List.of("pg-rr", "pg-rc")) {
      metrics.anomalyPublished(tenant, "G-single", "LostUpdate", EnumSet.of(Level.SSER, Level.SER, Level.SI), null);
    }
    // Then
    final String[] labels = {"tenant", "type", "name"};
    assertEquals(1.0, metrics.sample(MetricNames.PROMISE_BROKEN_ANOMALIES_TOTAL, labels,
        new String[] {"pg-rr", "G-single", "LostUpdate"}));
    assertNull(metrics.sample(MetricNames.PROMISE_BROKEN_ANOMALIES_TOTAL, labels,
        new String[] {"pg-rc", "G-single", "LostUpdate"}));
    assertEquals(1.0, metrics.sample(MetricNames.PROMISE_ALLOWED_ANOMALIES_TOTAL,
        new String[] {"tenant", "type", "name", "weaker_than"}, new String[] {"pg-rc", "G-single", "LostUpdate", "SI"}));
    final String[] level = {"tenant", "level"};
    assertEquals(1.0, metrics.sample(MetricNames.PROMISED_LEVEL, level, new String[] {"pg-rc", "RC"}));
    assertEquals(1.0, metrics.sample(MetricNames.PROMISED_LEVEL, level, new String[] {"pg-rr", "SI"}));
    // ... and the promised levels the checker does not decide are exported as unchecked
    assertEquals(1.0, metrics.sample(MetricNames.PROMISE_UNCHECKED_LEVEL, level, new String[] {"pg-rc", "RC"}));
    assertNull(metrics.sample(MetricNames.PROMISE_UNCHECKED_LEVEL, level, new String[] {"pg-rr", "SI"}));
  }

  private static Double value(final CheckerMetrics metrics, final String name, final String tenant) {
    return metrics.sample(name, TENANT, new String[] {tenant});
  }
}
