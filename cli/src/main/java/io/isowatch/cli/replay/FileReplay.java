package io.isowatch.cli.replay;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.ArrivalLateness;
import io.isowatch.localstack.LocalKafka;
import io.isowatch.localstack.LocalRegistry;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.serde.InProcessRegistry;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.replay.EndOffsets;
import io.isowatch.streams.replay.HistoryPublisher;
import io.isowatch.streams.replay.Progress;
import io.isowatch.streams.replay.Replayer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code isowatch replay --file}: a fresh single-node broker in this JVM and a schema registry (an
 * {@link InProcessRegistry} by default, a registry child process with {@code
 * -Disowatch.replay.registry=child}), the history published through the producer path as one tenant, the checker topology run
 * over it to the end, and the tenant's report read back from what the topology published.
 */
public final class FileReplay {
  private static final Logger LOG = LoggerFactory.getLogger(FileReplay.class);
  private static final Duration STALL = Duration.ofMinutes(5);
  /**
   * System property: {@code true} (the default) starts the checker while the file is being
   * published; {@code false} publishes the whole file first, then starts the checker. The default
   * since branch replay50k: the checker's start and its checking overlap the publishing now that the
   * replay releases transactions as they arrive (run S: 0.89-0.93x of the wall publishing first;
   * docs/benchmarks.md, "replay50k").
   */
  public static final String ALONGSIDE_PROPERTY = "isowatch.replay.check.while.publishing";
  /**
   * System property: {@code in-process} (the default) serves the replay's schemas from an {@link
   * InProcessRegistry} in this JVM; {@code child} starts the Apicurio registry as a child process,
   * as before branch replay50k2. Nothing outside the JVM reads the replay's topics (its broker is in
   * this JVM and stops with it), the serdes are Apicurio's either way and the records the same
   * wire format; the child cost ~5 s of CPU to start, a third of a 3 x 10^5 replay's
   * (docs/benchmarks.md, "replay50k2").
   */
  public static final String REGISTRY_PROPERTY = "isowatch.replay.registry";

  private FileReplay() {}

  /**
   * Replays a history on a broker and registry started with {@link Stack#start} (for a large file,
   * while the caller read it); closes them.
   *
   * @param settings checker settings (check.levels, check.initial.value, check.grace.ms ...)
   * @param workDir where the registry's log and the checker's state go
   * @return the tenant's result, or none when the history has no transactions
   */
  public static Map<String, CheckResult> run(final Stack stack, final History history, final String tenant,
      final Map<String, String> settings, final Path workDir, final Progress progress) throws Exception {
    try (Stack closing = stack) {
      return replay(stack.kafka(), stack.registryUrl(), history, tenant, settings, workDir, progress);
    }
  }

  private static Map<String, CheckResult> replay(final LocalKafka kafka, final URI registryUrl,
      final History history, final String tenant, final Map<String, String> settings, final Path workDir,
      final Progress progress) throws Exception {
    // One tenant on a broker of its own: one partition each, so one task (its stores, their
    // changelogs) to create at start-up instead of six of which five would stay empty.
    final Topics topics = Topics.defaults().withReplication((short) 1).withTenantPartitions(1);
    kafka.createTopics(topics.all());
    final AvroSerdeConfig serde = AvroSerdeConfig.development(registryUrl);
    final List<TransactionEvent> events = HistoryPublisher.events(history, tenant);
    if (events.isEmpty()) {
      return Map.of();
    }
    final String topic = topics.txnEvents().name();
    final EndOffsets ends;
    final CompletableFuture<Void> publishing;
    if (Boolean.parseBoolean(System.getProperty(ALONGSIDE_PROPERTY, "true"))) {
      // The checker starts while the history is published: on a new topic of one partition, event i
      // is stored at offset i (HistoryPublisher.publishToNewPartition checks each acknowledgement and
      // fails otherwise), so the end is known before the first send. After the last acknowledgement
      // the end is also captured from the broker as for a recorded topic, and must be the same.
      ends = new EndOffsets(topic, Map.of(0, 0L), Map.of(0, (long) events.size()), Map.of(0, events.size() - 1L));
      publishing = CompletableFuture.runAsync(() -> {
        // One bar at a time: the checking's, which ends last.
        publish(kafka, serde, topic, events, Progress.NONE);
        final EndOffsets captured = capture(kafka, serde, topic);
        if (!captured.equals(ends)) {
          throw new Replayer.ReplayException("the published topic ends at " + captured + ", not at " + ends);
        }
      }, runnable -> {
        final Thread t = new Thread(runnable, "isowatch-replay-publisher");
        t.setDaemon(true);
        t.start();
      });
    } else {
      publish(kafka, serde, topic, events, progress);
      ends = capture(kafka, serde, topic);
      publishing = CompletableFuture.completedFuture(null);
    }
    final Map<String, Object> props = new HashMap<>(settings);
    props.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl.toString());
    props.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    props.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, "isowatch-replay-" + UUID.randomUUID());
    props.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, workDir.resolve("state").toString());
    props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
    props.put(IsoWatchStreamsConfig.TOPICS_REPLICATION_CONFIG, "1");
    props.put(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG, ends.replayEnd().toString());
    likeCheck(props, history);
    final Map<String, CheckResult> results = Replayer.run(new IsoWatchStreamsConfig(props), ends, progress, STALL,
        () -> failIfFailed(publishing));
    awaitPublishing(publishing);
    return results;
  }

  /**
   * What makes the replay decide exactly what {@code isowatch check} decides on the whole file,
   * unless the caller set it: an absence bound covering the file's span (no read is proved to have
   * no writer before the end, as check proves it at the end) and the grace under which no
   * transaction of the file is late ({@link #graceNoneLate}), so that the transactions are checked
   * in check's order while they arrive; no horizon (check's default is
   * unsegmented; the streaming checker's default horizon bounds an endless stream, not a file), and
   * times judged against the other sessions' only, as check judges them, never against the
   * records' timestamps (the replay's clock, not the history's): a time more than the future bound
   * ahead of every other session's latest is a FUTURE_EVENT_TIME finding and does not move the
   * watermark (docs/streaming.md, "No false positive from time").
   */
  static void likeCheck(final Map<String, Object> props, final History history) {
    props.putIfAbsent(IsoWatchStreamsConfig.CHECK_FUTURE_ARRIVAL_CONFIG, "false");
    props.putIfAbsent(IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "-1");
    if (!props.containsKey(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG)) {
      // The absence bound keeps every read waiting for its writer until the end of the file, as
      // check does; the grace only orders the arrivals.
      props.putIfAbsent(IsoWatchStreamsConfig.CHECK_ABSENCE_BOUND_MS_CONFIG, Long.toString(graceCoveringAll(history)));
      props.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, Long.toString(graceNoneLate(history, props)));
    }
  }

  /**
   * The grace, in ms, under which no transaction of the file arrives late in the file's order
   * ({@link ArrivalLateness#graceReleasingAsAFlush}): the checker then releases the transactions in
   * π order while they stream in, rather than all at the end-of-input flush, and reports what that
   * flush would. The grace covering the whole file (every transaction held to the end, as before)
   * for the files where that is not established (a value written twice, an id reused, a time far
   * ahead, list appends), and when times are also judged by their arrival ({@code
   * check.future.arrival}, which {@link #likeCheck} turns off).
   */
  static long graceNoneLate(final History history, final Map<String, Object> props) {
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(props);
    if (config.onlineOptions().futureByArrival()) {
      return graceCoveringAll(history);
    }
    final OptionalLong micros =
        ArrivalLateness.graceReleasingAsAFlush(history.transactions(), config.onlineOptions().futureMicros());
    return micros.isPresent() ? micros.getAsLong() / 1_000 + 1 : graceCoveringAll(history);
  }

  private static void publish(final LocalKafka kafka, final AvroSerdeConfig serde, final String topic,
      final List<TransactionEvent> events, final Progress progress) {
    final AtomicLong acknowledged = new AtomicLong();
    try (Progress.Phase phase = progress.phase("publishing", events.size(), acknowledged::get)) {
      HistoryPublisher.publishToNewPartition(kafka.bootstrapServers(), serde, topic, events, acknowledged);
    }
  }

  private static EndOffsets capture(final LocalKafka kafka, final AvroSerdeConfig serde, final String topic) {
    return EndOffsets.capture(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        topic, new AvroSerdes(serde).valueSerde(TransactionEvent.class).deserializer());
  }

  /** Throws the publishing's failure, if it has failed. */
  private static void failIfFailed(final CompletableFuture<Void> publishing) {
    if (publishing.isCompletedExceptionally()) {
      awaitPublishing(publishing);
    }
  }

  /** Waits for the publishing to end; throws its failure as thrown. */
  private static void awaitPublishing(final CompletableFuture<Void> publishing) {
    try {
      publishing.join();
    } catch (final CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /**
   * The replay's own broker (in this JVM) and registry (in this JVM, or a child process), the broker
   * and a registry child starting in the background from {@link #start}: they take seconds, which
   * the caller spends reading the file. Closing stops whichever started; a start that failed is
   * thrown by {@link #kafka} or {@link #registryUrl}, and only logged by {@link #close} (when the caller never asked for it, e.g. because
   * the file was invalid).
   */
  public static final class Stack implements AutoCloseable {
    private final CompletableFuture<LocalKafka> kafka;
    private final CompletableFuture<? extends AutoCloseable> registry;
    private final CompletableFuture<URI> registryUrl;

    private Stack(final CompletableFuture<LocalKafka> kafka, final CompletableFuture<? extends AutoCloseable> registry,
        final CompletableFuture<URI> registryUrl) {
      this.kafka = kafka;
      this.registry = registry;
      this.registryUrl = registryUrl;
    }

    /**
     * Starts the broker in the background, and the registry: in this JVM ({@link InProcessRegistry},
     * at once), or as a child process in the background when {@value #REGISTRY_PROPERTY} is {@code
     * child}.
     */
    public static Stack start(final Path workDir, final Consumer<String> notice) {
      final String mode = System.getProperty(REGISTRY_PROPERTY, "in-process");
      final CompletableFuture<? extends AutoCloseable> registry;
      final CompletableFuture<URI> url;
      if ("child".equals(mode)) {
        final CompletableFuture<LocalRegistry> child = background("isowatch-replay-registry-start",
            () -> LocalRegistry.start(workDir, notice));
        registry = child;
        url = child.thenApply(LocalRegistry::url);
      } else if ("in-process".equals(mode)) {
        final InProcessRegistry inProcess = InProcessRegistry.open();
        registry = CompletableFuture.completedFuture(inProcess);
        url = CompletableFuture.completedFuture(inProcess.url());
      } else {
        throw new IllegalArgumentException("-D" + REGISTRY_PROPERTY + " must be in-process or child, not " + mode);
      }
      final CompletableFuture<LocalKafka> kafka = background("isowatch-replay-kafka-start", LocalKafka::start);
      return new Stack(kafka, registry, url);
    }

    /** The broker, once started. */
    public LocalKafka kafka() throws Exception {
      return await(kafka);
    }

    /** The registry's URL ({@code schema.registry.url}), once started. */
    public URI registryUrl() throws Exception {
      return await(registryUrl);
    }

    @Override
    public void close() {
      closeStarted(registry, "registry");
      closeStarted(kafka, "broker");
    }

    private static <T extends AutoCloseable> void closeStarted(final CompletableFuture<T> starting,
        final String what) {
      final T started;
      try {
        started = starting.join();
      } catch (final CompletionException | java.util.concurrent.CancellationException e) {
        LOG.warn("The replay's local {} did not start", what, e);
        return;
      }
      try {
        started.close();
      } catch (final Exception e) {
        LOG.warn("The replay's local {} did not stop cleanly", what, e);
      }
    }

    private interface Starter<T> {
      T start() throws Exception;
    }

    private static <T> CompletableFuture<T> background(final String name, final Starter<T> starter) {
      final CompletableFuture<T> out = new CompletableFuture<>();
      final Thread t = new Thread(() -> {
        try {
          out.complete(starter.start());
        } catch (final Throwable e) {
          out.completeExceptionally(e);
        }
      }, name);
      t.setDaemon(true);
      t.start();
      return out;
    }

    /** The started service, or its start's exception as thrown. */
    private static <T> T await(final CompletableFuture<T> starting) throws Exception {
      try {
        return starting.join();
      } catch (final CompletionException e) {
        if (e.getCause() instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw e;
      }
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
