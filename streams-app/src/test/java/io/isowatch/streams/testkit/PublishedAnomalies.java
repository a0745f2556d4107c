package io.isowatch.streams.testkit;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.avro.TransactionEvents;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Comparing what the topology published on the anomalies topic with what a check of the same
 * history finds, for the order-independence tests: both sides without the checker's clock.
 */
public final class PublishedAnomalies {
  /** The key prefix {@link #comparable} gives a second anomaly with an id already seen. */
  public static final String PUBLISHED_TWICE = "published twice: ";

  private PublishedAnomalies() {}

  /** The history exactly as the topology receives it (seq numbers assigned, tenant set). */
  public static History fed(final String tenant, final History h) {
    return new History(CheckerDriver.events(tenant, h).stream().map(TransactionEvents::toCore).toList());
  }

  /** The anomaly records the topology should publish for {@code result}. */
  public static List<Anomaly> expectedRecords(final String tenant, final CheckResult result) {
    return result.anomalies().stream().map(a -> AnomalyRecords.toAvro(tenant, a, 0L, null)).toList();
  }

  /**
   * Anomalies by uniqueId, without the detection time and latency (the checker's clock); an id seen
   * twice adds a {@link #PUBLISHED_TWICE} entry, so the map differs from one without duplicates.
   */
  public static Map<String, Anomaly> comparable(final List<Anomaly> anomalies) {
    final Map<String, Anomaly> out = new TreeMap<>();
    for (final Anomaly a : anomalies) {
      final Anomaly copy = Anomaly.newBuilder(a).setDetectedAtMicros(0L).setDetectionLatencyMicros(null).build();
      if (out.put(a.getUniqueId(), copy) != null) {
        out.put(PUBLISHED_TWICE + a.getUniqueId(), copy);
      }
    }
    return out;
  }
}
