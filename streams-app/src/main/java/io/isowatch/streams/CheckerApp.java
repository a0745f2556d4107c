package io.isowatch.streams;

import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.TopicAdmin;
import io.isowatch.schemas.topic.TopicReport;
import io.isowatch.streams.fault.RegistryErrors;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.HealthAndMetricsServer;
import io.isowatch.streams.metrics.KafkaStreamsCollector;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.ui.BearerAuth;
import io.isowatch.streams.ui.UiFeed;
import io.isowatch.streams.ui.UiState;
import io.isowatch.streams.ui.WebUi;
import io.prometheus.client.Collector;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running streaming checker: topics (when configured), Kafka Streams with {@link
 * IsoWatchTopology}, and the HTTP endpoint (metrics, health, and the web UI fed by a read-committed
 * consumer of the app's own outputs). Used by {@code isowatch run} and the end-to-end tests.
 * Never wipes local state: a restart resumes from the state directory and the changelogs.
 *
 * <p>An exception escaping a processor is a bug (bad input never escapes): the client shuts down,
 * {@link #awaitStop} returns and {@code isowatch run} exits non-zero, for the supervisor to see.
 */
public final class CheckerApp implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CheckerApp.class);

  private final IsoWatchStreamsConfig config;
  private final CheckerMetrics metrics;
  private final KafkaStreams streams;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private HealthAndMetricsServer http;
  private UiFeed uiFeed;
  private boolean closed;
  /** Set by the state listener at the first RUNNING (the start-up line is logged once). */
  private volatile boolean startedRunning;

  private CheckerApp(final IsoWatchStreamsConfig config, final CheckerMetrics metrics, final KafkaStreams streams) {
    this.config = config;
    this.metrics = metrics;
    this.streams = streams;
  }

  /**
   * Starts the checker.
   *
   * @throws IOException when the HTTP port cannot be bound
   * @throws org.apache.kafka.common.config.ConfigException when the HTTP endpoint would be open to the
   *     network without a token ({@link IsoWatchStreamsConfig#requireSafeHttpExposure})
   * @throws ExecutionException when topic creation is configured and the cluster refuses it
   * @throws TimeoutException when topic creation is configured and the cluster does not answer
   */
  public static CheckerApp start(final IsoWatchStreamsConfig config)
      throws IOException, ExecutionException, TimeoutException, InterruptedException {
    final StartupTimeline timeline = new StartupTimeline();
    // Before anything has side effects (topics, state): an unsafe bind is a configuration error.
    config.requireSafeHttpExposure();
    if (config.getBoolean(IsoWatchStreamsConfig.TOPICS_CREATE_CONFIG)) {
      createTopics(config);
      timeline.mark("topics");
    }
    LOG.info("IsoWatch configuration {}", config.describe());
    final CheckerMetrics metrics = new CheckerMetrics(config.promisedLevels(), config.levels());
    final org.apache.kafka.streams.Topology topology = IsoWatchTopology.build(config, metrics);
    timeline.mark("topology");
    final KafkaStreams streams = new KafkaStreams(topology, config.streamsProperties());
    timeline.mark("client");
    final CheckerApp app = new CheckerApp(config, metrics, streams);
    streams.setUncaughtExceptionHandler(app::onUncaught);
    streams.setStateListener((now, before) -> {
      LOG.info("Kafka Streams state changed from=[{}] to=[{}]", before, now);
      if (now == KafkaStreams.State.REBALANCING && before == KafkaStreams.State.CREATED) {
        timeline.mark("started");
      } else if (now == KafkaStreams.State.RUNNING && !app.startedRunning) {
        app.startedRunning = true;
        timeline.mark("joinAndStores");
        LOG.info("IsoWatch checker RUNNING startupMs=[{}]", timeline.describe());
      }
      if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
        app.stopped.countDown();
      }
    });
    metrics.register(new KafkaStreamsCollector(streams::metrics));
    metrics.register(app.upGauge());
    final int port = config.getInt(IsoWatchStreamsConfig.HTTP_PORT_CONFIG);
    if (port >= 0) {
      final boolean ui = config.getBoolean(IsoWatchStreamsConfig.UI_ENABLED_CONFIG);
      final UiState uiState = new UiState(config.getInt(IsoWatchStreamsConfig.UI_MAX_ANOMALIES_CONFIG));
      final boolean secureCookie = config.getBoolean(IsoWatchStreamsConfig.HTTP_COOKIE_SECURE_CONFIG);
      app.http = HealthAndMetricsServer.start(config.getString(IsoWatchStreamsConfig.HTTP_HOST_CONFIG), port,
          metrics, () -> new HealthAndMetricsServer.Health(app.healthy(), streams.state().name()),
          config.httpAuthToken().map(t -> BearerAuth.of(t, secureCookie)),
          ui ? Optional.of(new WebUi(uiState, config.promisedLevels())) : Optional.empty(), config.httpLimits());
      if (ui) {
        app.uiFeed = UiFeed.start("isowatch-ui-feed", config.consumerProperties(),
            new AvroSerdes(config.avroSerdeConfig()).valueSerde(SpecificRecord.class).deserializer(),
            config.topics().anomalies().name(), config.topics().verdicts().name(), uiState);
      }
    }
    timeline.mark("http");
    streams.start();
    LOG.info("IsoWatch checker started applicationId=[{}] bootstrapServers=[{}] input=[{}] guarantee=[{}]",
        config.getString(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG),
        config.getString(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG), config.topics().txnEvents().name(),
        config.getString(IsoWatchStreamsConfig.PROCESSING_GUARANTEE_CONFIG));
    return app;
  }

  private static void createTopics(final IsoWatchStreamsConfig config)
      throws ExecutionException, TimeoutException, InterruptedException {
    try (Admin admin = Admin.create(config.adminProperties())) {
      final List<TopicReport> reports = new TopicAdmin(admin, Duration.ofSeconds(30)).ensure(config.topics().all());
      // A differing topic is reported by TopicAdmin and left alone: changing it is a migration.
      final long mismatched = reports.stream().filter(r -> !r.ok()).count();
      if (mismatched > 0) {
        LOG.warn("Some topics differ from their specification, starting anyway mismatched=[{}]", mismatched);
      }
    }
  }

  private StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse onUncaught(final Throwable e) {
    if (RegistryErrors.isTransient(e)) {
      // Not a bug and not the record's fault: the task resumes from its last commit on a new thread.
      LOG.warn("Schema registry unavailable: replacing the stream thread, its tasks resume from their last commit "
          + "error=[{}]", e.toString());
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    if (config.quarantineRequests().anyPending()) {
      // An exception handler named the tenant at fault: the new thread's task quarantines it.
      LOG.warn("A record could not be handled: replacing the stream thread, its task quarantines the record's tenant "
          + "and resumes from its last commit error=[{}]", e.toString());
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    LOG.error("Bug: an exception escaped the checker's processing; shutting the client down", e);
    return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  }

  private Collector upGauge() {
    return new Collector() {
      @Override
      public List<MetricFamilySamples> collect() {
        return List.of(new MetricFamilySamples(MetricNames.UP, Type.GAUGE,
            "1 while the checker is RUNNING or REBALANCING.",
            List.of(new MetricFamilySamples.Sample(MetricNames.UP, List.of(), List.of(), healthy() ? 1 : 0))));
      }
    };
  }

  /** RUNNING or REBALANCING. */
  public boolean healthy() {
    final KafkaStreams.State s = streams.state();
    return s == KafkaStreams.State.RUNNING || s == KafkaStreams.State.REBALANCING;
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  public CheckerMetrics metrics() {
    return metrics;
  }

  /** The HTTP endpoint's port, or -1 when disabled. */
  public int httpPort() {
    return http == null ? -1 : http.port();
  }

  /** Blocks until the client stops by itself (error) or {@link #requestStop} is called. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** True when the client died of an error rather than being asked to stop. */
  public boolean failed() {
    return streams.state() == KafkaStreams.State.ERROR;
  }

  /** Asks {@link #awaitStop} to return (signal handlers). */
  public void requestStop() {
    stopped.countDown();
  }

  /** Closes Kafka Streams (commits, flushes, leaves the group) and the HTTP endpoint; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    final Duration timeout = Duration.ofMillis(config.getLong(IsoWatchStreamsConfig.SHUTDOWN_TIMEOUT_MS_CONFIG));
    LOG.info("Stopping the IsoWatch checker timeoutMs=[{}]", timeout.toMillis());
    final boolean clean = streams.close(new KafkaStreams.CloseOptions().timeout(timeout).leaveGroup(true));
    if (!clean) {
      LOG.warn("Kafka Streams did not close within the timeout timeoutMs=[{}]", timeout.toMillis());
    }
    if (uiFeed != null) {
      uiFeed.close();
    }
    if (http != null) {
      http.close();
    }
    stopped.countDown();
    LOG.info("IsoWatch checker stopped state=[{}]", streams.state());
  }
}
