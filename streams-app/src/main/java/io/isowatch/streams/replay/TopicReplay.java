package io.isowatch.streams.replay;

import io.isowatch.core.check.CheckResult;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.TopicAdmin;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code isowatch replay --topic T --from-beginning}: re-checks a recorded topic on a configured
 * broker under a fresh application id, {@code isowatch-replay-<uuid>}, so that the production
 * checker's group, state and outputs are untouched.
 *
 * <ul>
 *   <li>The replay's outputs go to topics of its own, named {@code <application id>.} + the
 *       configured name (e.g. {@code isowatch-replay-3f2a….isowatch.anomalies.v1}), never to the
 *       production anomalies and verdicts topics. Their schemas are registered under their own
 *       subjects.
 *   <li>The end is captured at start ({@link EndOffsets}): records appended later are not waited for.
 *   <li>At the end, unless kept, the replay deletes its output topics, the internal topics of its
 *       application id, its consumer group, its registry subjects and its local state directory.
 * </ul>
 */
public final class TopicReplay {
  private static final Logger LOG = LoggerFactory.getLogger(TopicReplay.class);
  private static final Duration STALL = Duration.ofMinutes(5);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private TopicReplay() {}

  /** What the replay created, for the cleanup and the user. */
  public record Run(String applicationId, Topics topics, Path stateDir) {}

  /** A fresh application id, output topic names and state directory for a replay of {@code topic}. */
  public static Run plan(final IsoWatchStreamsConfig base, final String topic) throws IOException {
    final String appId = "isowatch-replay-" + UUID.randomUUID();
    final Topics configured = base.topics();
    final Topics topics = configured.withNames(topic, appId + "." + configured.anomalies().name(),
        appId + "." + configured.verdicts().name(), appId + "." + configured.deadLetters().name());
    return new Run(appId, topics, Files.createTempDirectory("isowatch-replay-state-"));
  }

  /**
   * Replays the topic.
   *
   * @param base the configuration (file, environment, flags) of the broker, registry and checks
   * @param keep leave the replay's topics, group, subjects and state in place
   */
  public static Map<String, CheckResult> run(final IsoWatchStreamsConfig base, final Run run, final boolean keep,
      final Progress progress) throws Exception {
    final Map<String, Object> props = new HashMap<>(base.originals());
    props.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, run.applicationId());
    props.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, run.stateDir().toString());
    props.put(IsoWatchStreamsConfig.TOPICS_TXN_EVENTS_NAME_CONFIG, run.topics().txnEvents().name());
    props.put(IsoWatchStreamsConfig.TOPICS_ANOMALIES_NAME_CONFIG, run.topics().anomalies().name());
    props.put(IsoWatchStreamsConfig.TOPICS_VERDICTS_NAME_CONFIG, run.topics().verdicts().name());
    props.put(IsoWatchStreamsConfig.TOPICS_DLQ_NAME_CONFIG, run.topics().deadLetters().name());
    // The replay's own subjects must exist before it publishes; production's are not touched.
    props.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    props.put(IsoWatchStreamsConfig.TOPICS_CREATE_CONFIG, "false");
    props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
    final IsoWatchStreamsConfig withoutEnd = new IsoWatchStreamsConfig(props);
    final EndOffsets ends = EndOffsets.capture(withoutEnd.adminProperties(), run.topics().txnEvents().name(),
        new AvroSerdes(withoutEnd.avroSerdeConfig()).valueSerde(TransactionEvent.class).deserializer());
    LOG.info("Replaying topic=[{}] applicationId=[{}] lastOffsets=[{}]", ends.topic(), run.applicationId(),
        ends.replayEnd());
    props.put(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG, ends.replayEnd().toString());
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(props);
    // Ctrl-C or SIGTERM mid-replay: what was created is still deleted.
    final Thread hook = new Thread(() -> cleanUp(config, run), "replay-clean-up");
    if (!keep) {
      Runtime.getRuntime().addShutdownHook(hook);
    }
    try {
      try (Admin admin = Admin.create(config.adminProperties())) {
        new TopicAdmin(admin, ADMIN_TIMEOUT).ensure(outputs(run.topics()));
      }
      return Replayer.run(config, ends, progress, STALL);
    } finally {
      if (!keep) {
        Runtime.getRuntime().removeShutdownHook(hook);
        cleanUp(config, run);
      }
    }
  }

  private static List<TopicSpec<?, ?>> outputs(final Topics topics) {
    return List.of(topics.anomalies(), topics.verdicts(), topics.deadLetters());
  }

  /** Deletes what the replay created; each step is attempted and a failure logged, not thrown. */
  public static void cleanUp(final IsoWatchStreamsConfig config, final Run run) {
    try (Admin admin = Admin.create(config.adminProperties())) {
      final Set<String> doomed = new TreeSet<>();
      outputs(run.topics()).forEach(t -> doomed.add(t.name()));
      for (final String name : admin.listTopics().names().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        if (name.startsWith(run.applicationId() + "-")) {
          doomed.add(name);
        }
      }
      final Set<String> existing = admin.listTopics().names().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      doomed.retainAll(existing);
      admin.deleteTopics(doomed).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      LOG.info("Replay topics deleted topics=[{}]", doomed);
      admin.deleteConsumerGroups(List.of(run.applicationId())).all()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (final Exception e) {
      LOG.warn("Could not delete the replay's topics or group applicationId=[{}] error=[{}]",
          run.applicationId(), e.toString());
    }
    deleteSubjects(config, run);
    deleteTree(run.stateDir());
  }

  private static void deleteSubjects(final IsoWatchStreamsConfig config, final Run run) {
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final URI base = config.avroSerdeConfig().registryUrl();
    for (final TopicSpec<?, ?> t : outputs(run.topics())) {
      final String subject = URLEncoder.encode(t.valueSubject(), StandardCharsets.UTF_8);
      // Confluent's API: a soft delete first, then the permanent one.
      for (final String query : List.of("", "?permanent=true")) {
        try {
          final HttpResponse<String> r = http.send(HttpRequest.newBuilder(
              base.resolve("/apis/ccompat/v7/subjects/" + subject + query)).timeout(Duration.ofSeconds(10))
              .DELETE().build(), HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() / 100 != 2 && r.statusCode() != 404) {
            LOG.warn("Registry refused to delete a replay subject subject=[{}] status=[{}] body=[{}]",
                t.valueSubject(), r.statusCode(), r.body());
          }
        } catch (final IOException e) {
          LOG.warn("Could not delete a replay subject subject=[{}] error=[{}]", t.valueSubject(), e.toString());
        } catch (final InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  static void deleteTree(final Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      final List<Path> paths = new ArrayList<>(all.sorted(Comparator.reverseOrder()).toList());
      for (final Path p : paths) {
        Files.deleteIfExists(p);
      }
    } catch (final IOException e) {
      LOG.warn("Could not delete the replay's state directory dir=[{}] error=[{}]", dir, e.toString());
    }
  }
}
