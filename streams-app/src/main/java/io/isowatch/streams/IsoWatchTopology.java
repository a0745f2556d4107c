package io.isowatch.streams;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.fault.ClientLimits;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.processor.CheckTransactionsSupplier;
import io.isowatch.streams.processor.DecodeTransactionsProcessor;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;

/**
 * The streaming checker's topology, built by one static method used by {@code isowatch run} and the
 * tests alike:
 *
 * <pre>
 * isowatch.txn-events.v1
 *   └─ txn-events-source (byte[] key and value)
 *        └─ decode-transactions ──────────────────────────── dlq-sink → isowatch.dlq.v1
 *             └─ check-transactions [tenant-transactions, tenant-progress, published-anomalies]
 *                  ├─ anomalies-sink → isowatch.anomalies.v1
 *                  └─ verdicts-sink  → isowatch.verdicts.v1
 * </pre>
 *
 * <p>No repartitioning: the input is keyed by tenant, so a tenant's whole graph lives in one task.
 */
public final class IsoWatchTopology {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IsoWatchTopology.class);

  public static final String SOURCE = "txn-events-source";
  public static final String DECODE = "decode-transactions";
  public static final String CHECK = "check-transactions";
  public static final String ANOMALIES_SINK = "anomalies-sink";
  public static final String VERDICTS_SINK = "verdicts-sink";
  public static final String DLQ_SINK = "dlq-sink";

  private IsoWatchTopology() {}

  /**
   * The topology for a configuration.
   *
   * @param metrics where processors record the checker's metrics (served on /metrics)
   */
  public static Topology build(final IsoWatchStreamsConfig config, final CheckerMetrics metrics) {
    final Topics topics = config.topics();
    if (config.horizon().enabled()
        && !StreamsConfig.EXACTLY_ONCE_V2.equals(config.getString(IsoWatchStreamsConfig.PROCESSING_GUARANTEE_CONFIG))) {
      // A checkpoint and the deletes of the inputs it covers go to two changelogs; only a Kafka
      // transaction makes them land together (docs/streaming.md, "Bounded stores").
      LOG.warn("A horizon is set without exactly_once_v2: a crash during a checkpoint can leave a tenant's stores "
          + "missing inputs, and its rebuilt engine would not check them processingGuarantee=[{}]",
          config.getString(IsoWatchStreamsConfig.PROCESSING_GUARANTEE_CONFIG));
    }
    final AvroSerdes serdes = new AvroSerdes(config.avroSerdeConfig());
    // Built with the app's own Streams config, so topology-level settings passed through apply.
    final Topology topology = new Topology(new TopologyConfig(new StreamsConfig(config.streamsProperties())));
    topology.addSource(SOURCE, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
        topics.txnEvents().name());
    final java.util.Properties streamsProps = config.streamsProperties();
    final Duration maxRegistryBlock = ClientLimits.maxRegistryBlock(streamsProps);
    final long maxInputBytes = ClientLimits.maxInputRecordBytes(streamsProps);
    topology.addProcessor(DECODE, () -> new DecodeTransactionsProcessor(config.avroSerdeConfig(), metrics, CHECK,
        DLQ_SINK, maxRegistryBlock, maxInputBytes), SOURCE);
    topology.addProcessor(CHECK,
        new CheckTransactionsSupplier(
            io.isowatch.streams.engine.WorkloadEngine.factory(config.checkOptions(),
                OnlineTenantEngine.factory(config.checkOptions(), config.onlineOptions())), metrics,
            Duration.ofMillis(config.verdictIntervalMs()),
            Duration.ofMillis(config.getLong(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG)),
            ANOMALIES_SINK, VERDICTS_SINK,
            Duration.ofMillis(config.horizon().enabled() ? config.pruneIntervalMs() : -1),
            config.quarantineRequests(), config.checkpointEveryInputs()),
        DECODE);
    topology.addSink(ANOMALIES_SINK, topics.anomalies().name(), Serdes.String().serializer(),
        serdes.valueSerde(Anomaly.class).serializer(), CHECK);
    topology.addSink(VERDICTS_SINK, topics.verdicts().name(), Serdes.String().serializer(),
        serdes.valueSerde(TenantVerdict.class).serializer(), CHECK);
    topology.addSink(DLQ_SINK, topics.deadLetters().name(), Serdes.ByteArray().serializer(),
        serdes.valueSerde(DeadLetter.class).serializer(), DECODE);
    return topology;
  }
}
