package io.isowatch.cli.replay;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.localstack.LocalKafka;
import io.isowatch.localstack.LocalRegistry;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.replay.EndOffsets;
import io.isowatch.streams.replay.HistoryPublisher;
import io.isowatch.streams.replay.Progress;
import io.isowatch.streams.replay.Replayer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * {@code isowatch replay --file}: a fresh single-node broker in this JVM and a registry child
 * process, the history published through the producer path as one tenant, the checker topology run
 * over it to the end, and the tenant's report read back from what the topology published.
 */
public final class FileReplay {
  private static final Duration STALL = Duration.ofMinutes(5);

  private FileReplay() {}

  /**
   * Replays a history.
   *
   * @param settings checker settings (check.levels, check.initial.value, check.grace.ms ...)
   * @param workDir where the registry's log and the checker's state go
   * @param notice lines for a person about slow steps (stderr)
   * @return the tenant's result, or none when the history has no transactions
   */
  public static Map<String, CheckResult> run(final History history, final String tenant,
      final Map<String, String> settings, final Path workDir, final Progress progress,
      final Consumer<String> notice) throws Exception {
    // Both take seconds to start: the registry's JVM starts while the broker formats and starts.
    final CompletableFuture<LocalRegistry> starting = CompletableFuture.supplyAsync(() -> {
      try {
        return LocalRegistry.start(workDir, notice);
      } catch (final IOException e) {
        throw new UncheckedIOException(e);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting the registry", e);
      }
    });
    try (LocalKafka kafka = startKafka(starting);
        LocalRegistry registry = awaitRegistry(starting)) {
      // One tenant on a broker of its own: one partition each, so one task (its stores, their
      // changelogs) to create at start-up instead of six of which five would stay empty.
      final Topics topics = Topics.defaults().withReplication((short) 1).withTenantPartitions(1);
      kafka.createTopics(topics.all());
      final AvroSerdeConfig serde = AvroSerdeConfig.development(registry.url());
      final List<TransactionEvent> events = HistoryPublisher.events(history, tenant);
      final AtomicLong acknowledged = new AtomicLong();
      try (Progress.Phase phase = progress.phase("publishing", events.size(), acknowledged::get)) {
        HistoryPublisher.publish(kafka.bootstrapServers(), serde, topics.txnEvents().name(), events, acknowledged);
      }
      final EndOffsets ends = EndOffsets.capture(
          Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
          topics.txnEvents().name(), new AvroSerdes(serde).valueSerde(TransactionEvent.class).deserializer());
      final Map<String, Object> props = new HashMap<>(settings);
      props.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      props.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url().toString());
      props.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
      props.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, "isowatch-replay-" + UUID.randomUUID());
      props.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, workDir.resolve("state").toString());
      props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
      props.put(IsoWatchStreamsConfig.TOPICS_REPLICATION_CONFIG, "1");
      props.put(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG, ends.replayEnd().toString());
      likeCheck(props, history);
      return Replayer.run(new IsoWatchStreamsConfig(props), ends, progress, STALL);
    }
  }

  /**
   * What makes the replay decide exactly what {@code isowatch check} decides on the whole file,
   * unless the caller set it: a grace covering the file's span, no horizon (check's default is
   * unsegmented; the streaming checker's default horizon bounds an endless stream, not a file), and
   * times judged against the other sessions' only, as check judges them, never against the
   * records' timestamps (the replay's clock, not the history's): a time more than the future bound
   * ahead of every other session's latest is a FUTURE_EVENT_TIME finding and does not move the
   * watermark (docs/streaming.md, "No false positive from time").
   */
  static void likeCheck(final Map<String, Object> props, final History history) {
    props.putIfAbsent(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, Long.toString(graceCoveringAll(history)));
    props.putIfAbsent(IsoWatchStreamsConfig.CHECK_FUTURE_ARRIVAL_CONFIG, "false");
    props.putIfAbsent(IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "-1");
  }

  /** Starts the broker; if that fails, stops the registry once it is up. */
  private static LocalKafka startKafka(final CompletableFuture<LocalRegistry> registry) throws Exception {
    try {
      return LocalKafka.start();
    } catch (final Exception e) {
      registry.thenAccept(LocalRegistry::close);
      throw e;
    }
  }

  private static LocalRegistry awaitRegistry(final CompletableFuture<LocalRegistry> registry) throws Exception {
    try {
      return registry.join();
    } catch (final CompletionException e) {
      if (e.getCause() instanceof UncheckedIOException io) {
        // The registry's IOException (a LocalServiceException when it could not start), as thrown.
        throw io.getCause();
      }
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /**
   * A grace period longer than the history's span of end times, in ms: no transaction of the file
   * is then late, whatever the file's order, so the replay decides exactly what {@code isowatch
   * check} decides on the whole file.
   */
  public static long graceCoveringAll(final History history) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (final Transaction t : history.transactions()) {
      if (t.end() != Transaction.NO_TIME) {
        min = Math.min(min, t.end());
        max = Math.max(max, t.end());
      }
    }
    return max < min ? 0 : (max - min) / 1_000 + 1;
  }
}
