package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.testkit.BenchmarkEvents;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one task of the checker sustains: generated MT histories of a few tenants piped through the
 * whole topology in a TopologyTestDriver (registry serdes, RocksDB stores, online engine, exactly-
 * once commits after every record as the driver does), no broker. Opt-in (tag {@code benchmark}):
 * {@code mvn -pl streams-app test -Dtest=TopologyThroughputBenchmark -Dsurefire.excludedGroups=}.
 */
@Tag("benchmark")
class TopologyThroughputBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyThroughputBenchmark.class);
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final int TENANTS = 4;
  private static final long PER_TENANT = Long.getLong("isowatch.bench.transactions", 25_000L);

  @TempDir Path stateDir;

  @Test
  void shouldReportTheEventsPerSecondOfOneTaskWhenFedGeneratedHistories() {
    // Given
    final List<TransactionEvent> events = BenchmarkEvents.generate(TENANTS, PER_TENANT, "LostUpdate:3,WriteSkew:2");
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir,
        Map.of(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1"))) {
      checker.pipe(events.subList(0, 1_000));
      // When
      final long t0 = System.nanoTime();
      checker.pipe(events.subList(1_000, events.size()));
      checker.flushIdleTenants();
      final double seconds = (System.nanoTime() - t0) / 1e9;
      // Then
      final int anomalies = checker.anomalies().size();
      final double rate = (events.size() - 1_000) / seconds;
      LOG.info("Topology throughput events=[{}] tenants=[{}] seconds=[{}] eventsPerSecond=[{}] anomalies=[{}]",
          events.size() - 1_000, TENANTS, String.format("%.2f", seconds), String.format("%.0f", rate), anomalies);
      assertTrue(anomalies >= TENANTS * 5, "anomalies published: " + anomalies);
    }
  }
}
