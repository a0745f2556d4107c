package io.isowatch.streams;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.Verdict;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant whose anomaly is too large to publish (larger than the producer's {@code
 * max.request.size}, set small here) is quarantined with a typed finding, a metric and a verdict,
 * while a healthy tenant's anomaly is still published; after a restart its records are skipped
 * rather than failing again (issue 10, item 3).
 */
class QuarantineTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  /** Producer limit of the test: an event with a 3,000-character key fits, its anomaly does not. */
  private static final Map<String, String> SMALL_REQUESTS = Map.of("kafka.producer.max.request.size", "8192");
  private static final String KEY = "k".repeat(3_000);

  @TempDir Path stateDir;

  @Test
  void shouldQuarantineOnlyTheTenantWhoseAnomalyCannotBePublishedWhenItIsTooLarge() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, SMALL_REQUESTS)) {
      // Given: a lost update on a huge key for tenant "big", an ordinary one for tenant "ok".
      checker.pipe(CheckerDriver.events("big", history(lostUpdate(KEY))));
      checker.pipe(CheckerDriver.events("ok", history(lostUpdate("x"))));
      // When: both tenants' buffers are flushed and verdicts published.
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then: the healthy tenant's anomaly is published, the big one's is not ...
      assertEquals(List.of("ok"), checker.anomalies().stream().map(Anomaly::getTenant).toList());
      // ... the big tenant is quarantined with a typed finding, counted ...
      final List<TenantVerdict> verdicts = checker.verdicts();
      final TenantVerdict big = verdicts.stream().filter(v -> v.getTenant().equals("big")).reduce((a, b) -> b)
          .orElseThrow();
      assertEquals(1L, big.getCounts().getFindingsByKind().get(VerdictRecords.TENANT_QUARANTINED), big.toString());
      assertTrue(big.getLevels().stream().noneMatch(l -> l.getVerdict() == Verdict.SATISFIED), big.toString());
      assertTrue(big.getReport().getFindings().stream().anyMatch(f -> f.getKind().equals(VerdictRecords.TENANT_QUARANTINED)
          && f.getMessage().contains("larger than")), big.getReport().getFindings().toString());
      assertEquals(1.0, quarantined(checker, "big"));
      assertNull(quarantined(checker, "ok"));
      // ... and the healthy tenant's verdict is its own, with no such finding.
      final TenantVerdict ok = verdicts.stream().filter(v -> v.getTenant().equals("ok")).reduce((a, b) -> b)
          .orElseThrow();
      assertNull(ok.getCounts().getFindingsByKind().get(VerdictRecords.TENANT_QUARANTINED));
      assertTrue(ok.getLevels().stream().map(LevelVerdict::getVerdict).anyMatch(v -> v == Verdict.VIOLATED));
    }
  }

  @Test
  void shouldSkipTheQuarantinedTenantAndGoOnWithTheOthersWhenRestarted() {
    // Given: a first run quarantines "big"; its quarantine store's changelog is kept.
    final List<KeyValue<String, String>> quarantine;
    try (CheckerDriver first = new CheckerDriver(REGISTRY.url(), stateDir, SMALL_REQUESTS)) {
      first.pipe(CheckerDriver.events("big", history(lostUpdate(KEY))));
      first.flushIdleTenants();
      quarantine = first.driver().createOutputTopic(IsoWatchStreamsConfig.APPLICATION_ID_DEFAULT + "-"
          + Stores.TENANT_QUARANTINE + "-changelog", Serdes.String().deserializer(), Serdes.String().deserializer())
          .readKeyValuesToList();
    }
    assertEquals(List.of("big"), quarantine.stream().map(kv -> kv.key).toList());
    try (CheckerDriver second = new CheckerDriver(REGISTRY.url(), stateDir.resolve("second"), SMALL_REQUESTS)) {
      // The driver does not restore from changelogs; do what Kafka Streams' restoration does.
      quarantine.forEach(kv -> second.driver().<String, String>getKeyValueStore(Stores.TENANT_QUARANTINE)
          .put(kv.key, kv.value));
      // When: the same too-large anomaly comes again, next to a healthy tenant's.
      second.pipe(CheckerDriver.events("big", history(lostUpdate(KEY).replace("T1", "T3").replace("T2", "T4"))));
      second.pipe(CheckerDriver.events("ok", history(lostUpdate("x"))));
      second.flushIdleTenants();
      second.publishVerdicts();
      // Then: nothing fails, the quarantined tenant is skipped (no verdict, no anomaly) and the other goes on.
      assertEquals(List.of("ok"), second.anomalies().stream().map(Anomaly::getTenant).toList());
      assertEquals(List.of("ok"), second.verdicts().stream().map(TenantVerdict::getTenant).distinct().toList());
      assertEquals(1.0, quarantined(second, "big"));
    }
  }

  private static String lostUpdate(final String key) {
    return "T1 s1 r(" + key + ",0) w(" + key + ",1) @1000..2000\nT2 s2 r(" + key + ",0) w(" + key + ",2) @1500..2500\n";
  }

  private static Double quarantined(final CheckerDriver checker, final String tenant) {
    return checker.metrics().sample(MetricNames.TENANT_QUARANTINED, new String[] {"tenant"}, new String[] {tenant});
  }
}
