package io.isowatch.streams.ops;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * What {@code kafka-streams-application-reset} does for IsoWatch, on the Admin API: the checker
 * starts over from the beginning of its input with empty state. It deletes the application's
 * consumer group (its committed input offsets: Kafka Streams then reads the input from the
 * earliest offset), the application's internal topics (changelogs and repartition topics, {@code
 * <application.id>-…-changelog}), and the local state directory of this host.
 *
 * <p>It never touches the input or output topics. A reset checker publishes its anomalies again,
 * with the same {@code uniqueId}s. A group with active members (a checker still running) is
 * never reset: {@link #plan} reports them and {@link #execute} refuses.
 */
public final class AppReset {
  private final Admin admin;
  private final Duration timeout;

  public AppReset(final Admin admin, final Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /**
   * What a reset would do.
   *
   * @param applicationId the group id and prefix of the internal topics
   * @param committedOffsets the group's committed offsets (input positions), empty when none
   * @param activeMembers members of the group now; a reset is refused unless empty
   * @param internalTopics the changelog and repartition topics to delete
   * @param localState this host's state directory of the application, null when absent
   */
  public record Plan(String applicationId, Map<TopicPartition, OffsetAndMetadata> committedOffsets,
      List<String> activeMembers, List<String> internalTopics, Path localState) {
    /** Whether a checker instance is still in the group. */
    public boolean running() {
      return !activeMembers.isEmpty();
    }
  }

  /** A reset that found active members when it was about to delete the group. */
  public static final class GroupActiveException extends Exception {
    public GroupActiveException(final String message) {
      super(message);
    }
  }

  /** Looks at the cluster and the local state directory; changes nothing. */
  public Plan plan(final String applicationId, final Path stateDir)
      throws ExecutionException, InterruptedException, TimeoutException {
    final List<String> members = new ArrayList<>();
    try {
      final ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(applicationId))
          .describedGroups().get(applicationId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      for (final MemberDescription m : group.members()) {
        members.add(m.consumerId() + " (" + m.clientId() + " on " + m.host() + ")");
      }
    } catch (final ExecutionException e) {
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw e;
      }
    }
    final Map<TopicPartition, OffsetAndMetadata> offsets = new java.util.TreeMap<>(
        java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
    admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata()
        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .forEach((tp, om) -> {
          if (om != null) {
            offsets.put(tp, om);
          }
        });
    final List<String> internal = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .stream()
        .filter(t -> isInternalTopic(applicationId, t))
        .sorted()
        .toList();
    final Path local = stateDir.resolve(applicationId);
    return new Plan(applicationId, offsets, List.copyOf(members), internal, Files.isDirectory(local) ? local : null);
  }

  /** Whether {@code topic} is one of Kafka Streams' internal topics of {@code applicationId}. */
  static boolean isInternalTopic(final String applicationId, final String topic) {
    return topic.startsWith(applicationId + "-")
        && (topic.endsWith("-changelog") || topic.endsWith("-repartition"));
  }

  /**
   * Resets: deletes the group, then the internal topics, then the local state.
   *
   * @throws GroupActiveException when the group has members: nothing was changed
   */
  public void execute(final Plan plan) throws GroupActiveException, ExecutionException, InterruptedException,
      TimeoutException, IOException {
    if (plan.running()) {
      throw new GroupActiveException("the checker is running: group " + plan.applicationId() + " has "
          + plan.activeMembers().size() + " member(s); stop every instance first");
    }
    try {
      admin.deleteConsumerGroups(List.of(plan.applicationId())).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (final ExecutionException e) {
      if (e.getCause() instanceof org.apache.kafka.common.errors.GroupNotEmptyException) {
        throw new GroupActiveException("an instance joined group " + plan.applicationId()
            + " meanwhile; nothing was deleted; stop every instance first");
      }
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw e;
      }
    }
    deleteTopics(plan.internalTopics());
    if (plan.localState() != null) {
      deleteRecursively(plan.localState());
    }
  }

  private void deleteTopics(final Collection<String> topics)
      throws ExecutionException, InterruptedException, TimeoutException {
    if (!topics.isEmpty()) {
      admin.deleteTopics(topics).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private static void deleteRecursively(final Path dir) throws IOException {
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(final Path d, final IOException e) throws IOException {
        if (e != null) {
          throw e;
        }
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
