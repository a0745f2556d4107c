package io.isowatch.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The soak's reading of {@code /metrics}: by exact sample name, for one tenant, empty when not served. */
class PrometheusTextTest {
  private static final String PAGE = """
      # HELP isowatch_retained_transactions Transactions the tenant's engine holds now.
      # TYPE isowatch_retained_transactions gauge
      isowatch_retained_transactions{tenant="soak",} 120000.0
      isowatch_retained_transactions{tenant="other",} 7.0
      isowatch_prune_seconds_count{tenant="soak",} 12.0
      isowatch_prune_seconds_sum{tenant="soak",} 3.5
      isowatch_prune_seconds_bucket{tenant="soak",le="0.5",} 10.0
      isowatch_heap_used_bytes 2.5E8
      isowatch_retired_false_positive_ratio{tenant="soak",} 2.5E-4
      isowatch_retired_false_positive_ratio{tenant="other",} 0.5
      isowatch_retired_versions{tenant="soak",filter="overwritten",} 1000.0
      isowatch_retired_versions{tenant="soak",filter="other",} 10.0
      """;

  @Test
  void shouldReadTheTenantsSampleWhenOthersShareTheFamily() {
    // Given: / When:
    final OptionalDouble v = PrometheusText.parse(PAGE).value("isowatch_retained_transactions", "soak");

    // Then:
    assertEquals(OptionalDouble.of(120_000), v);
  }

  @Test
  void shouldMatchTheExactNameWhenLongerNamesShareItsPrefix() {
    // Given:
    final PrometheusText text = PrometheusText.parse(PAGE);

    // When: / Then:
    assertEquals(OptionalDouble.of(3.5), text.value("isowatch_prune_seconds_sum", "soak"));
    assertEquals(OptionalDouble.empty(), text.value("isowatch_prune_seconds", "soak"));
  }

  @Test
  void shouldReadAFamilyWithoutTenantLabelForAnyTenant() {
    assertEquals(OptionalDouble.of(2.5e8), PrometheusText.parse(PAGE).value("isowatch_heap_used_bytes", "soak"));
  }

  @Test
  void shouldBeEmptyWhenTheFamilyIsNotServed() {
    assertEquals(OptionalDouble.empty(), PrometheusText.parse(PAGE).value("isowatch_checkpoint_bytes", "soak"));
  }

  @Test
  void shouldReadEveryFamilyOfAPrefixForTheTenantKeepingOtherLabelsApart() {
    // When:
    final Map<String, Double> retired = PrometheusText.parse(PAGE).series("isowatch_retired_", "soak");

    // Then:
    assertEquals(Map.of("isowatch_retired_false_positive_ratio", 2.5e-4,
        "isowatch_retired_versions{filter=\"overwritten\"}", 1000.0,
        "isowatch_retired_versions{filter=\"other\"}", 10.0), retired);
  }
}
