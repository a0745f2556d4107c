package io.isowatch.schemas.topic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates IsoWatch's topics idempotently: missing topics are created as specified, existing ones are
 * compared with their specification and every difference is reported, never silently changed (a
 * partition count or cleanup policy change is a migration, decided by a person).
 */
public final class TopicAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);
  private static final long RETRY_BACKOFF_MS = 100;

  private final Admin admin;
  private final Duration timeout;

  /**
   * @param admin a connected Admin client, owned by the caller
   * @param timeout how long to wait for each round trip to the cluster
   */
  public TopicAdmin(final Admin admin, final Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /**
   * Ensures every topic exists as specified.
   *
   * @return one report per topic, in the order given
   * @throws TimeoutException when the cluster does not answer within the timeout
   * @throws ExecutionException when the cluster refuses a request (e.g. not authorised)
   */
  public List<TopicReport> ensure(final Collection<TopicSpec<?, ?>> specs)
      throws InterruptedException, ExecutionException, TimeoutException {
    final Set<String> existing = await(admin.listTopics().names());
    final Set<String> created = create(specs.stream().filter(s -> !existing.contains(s.name())).toList());
    // Created topics are compared too: that checks the broker applied the spec, and it returns
    // only once every topic can be described, i.e. is usable by the caller.
    final Map<String, List<String>> problems = compare(List.copyOf(specs));
    final List<TopicReport> reports = new ArrayList<>();
    for (final TopicSpec<?, ?> spec : specs) {
      final TopicReport report = report(spec.name(), created, problems);
      if (report.ok()) {
        LOG.info("Topic ready topic=[{}] outcome=[{}]", spec.name(), report.outcome());
      } else {
        LOG.warn("Topic differs from its specification topic=[{}] problems={}", spec.name(), report.problems());
      }
      reports.add(report);
    }
    return reports;
  }

  private static TopicReport report(
      final String name, final Set<String> created, final Map<String, List<String>> problems) {
    final List<String> found = problems.get(name);
    if (!found.isEmpty()) {
      return new TopicReport(name, TopicReport.Outcome.MISMATCH, found);
    }
    return new TopicReport(
        name, created.contains(name) ? TopicReport.Outcome.CREATED : TopicReport.Outcome.EXISTS, found);
  }

  /** Creates the topics; returns the names this call created (not those a concurrent caller did). */
  private Set<String> create(final List<TopicSpec<?, ?>> missing)
      throws InterruptedException, ExecutionException, TimeoutException {
    final List<NewTopic> newTopics =
        missing.stream()
            .map(s -> new NewTopic(s.name(), Optional.of(s.partitions()), s.explicitReplication())
                .configs(s.configs()))
            .toList();
    final Map<String, KafkaFuture<Void>> results = admin.createTopics(newTopics).values();
    final Set<String> created = new HashSet<>();
    for (final Map.Entry<String, KafkaFuture<Void>> e : results.entrySet()) {
      try {
        await(e.getValue());
        created.add(e.getKey());
      } catch (final ExecutionException ex) {
        if (!(ex.getCause() instanceof TopicExistsException)) {
          throw ex;
        }
        // Created by someone else since we listed: compare it like any existing topic.
        LOG.info("Topic created concurrently topic=[{}]", e.getKey());
      }
    }
    return created;
  }

  private Map<String, List<String>> compare(final List<TopicSpec<?, ?>> specs)
      throws InterruptedException, ExecutionException, TimeoutException {
    if (specs.isEmpty()) {
      return Map.of();
    }
    final Set<String> names = specs.stream().map(TopicSpec::name).collect(Collectors.toSet());
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        return differences(specs, describe(names));
      } catch (final ExecutionException e) {
        // A topic just created (by us or by someone else) is listed before every broker can
        // describe it; that settles within moments, so retry until the timeout.
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
          throw e;
        }
        LOG.debug("Topic metadata not propagated yet, retrying topics={}", names);
        TimeUnit.MILLISECONDS.sleep(RETRY_BACKOFF_MS);
      }
    }
  }

  private Map<String, List<String>> differences(
      final List<TopicSpec<?, ?>> specs, final Described described) {
    final Map<String, List<String>> out = new HashMap<>();
    for (final TopicSpec<?, ?> spec : specs) {
      out.put(
          spec.name(),
          differences(
              spec,
              described.topics().get(spec.name()),
              described.configs().get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()))));
    }
    return out;
  }

  /** Partitions, replicas and configs of existing topics. */
  private record Described(Map<String, TopicDescription> topics, Map<ConfigResource, Config> configs) {}

  private Described describe(final Set<String> names)
      throws InterruptedException, ExecutionException, TimeoutException {
    final Map<String, TopicDescription> descriptions =
        await(admin.describeTopics(names).allTopicNames());
    final Map<ConfigResource, Config> configs =
        await(
            admin.describeConfigs(
                    names.stream()
                        .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n))
                        .toList())
                .all());
    return new Described(descriptions, configs);
  }

  private static List<String> differences(
      final TopicSpec<?, ?> spec, final TopicDescription actual, final Config config) {
    final List<String> problems = new ArrayList<>();
    final int partitions = actual.partitions().size();
    if (partitions != spec.partitions()) {
      problems.add("has " + partitions + " partitions, specified " + spec.partitions());
    }
    spec.explicitReplication()
        .ifPresent(
            wanted -> {
              final int replicas = actual.partitions().get(0).replicas().size();
              if (replicas != wanted) {
                problems.add("has replication factor " + replicas + ", specified " + wanted);
              }
            });
    spec.configs().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              final ConfigEntry entry = config.get(e.getKey());
              final String value = entry == null ? null : entry.value();
              if (!e.getValue().equals(value)) {
                problems.add("has " + e.getKey() + "=" + value + ", specified " + e.getValue());
              }
            });
    return problems;
  }

  private <T> T await(final KafkaFuture<T> future)
      throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
