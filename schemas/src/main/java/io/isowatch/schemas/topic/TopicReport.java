package io.isowatch.schemas.topic;

import java.util.List;

/**
 * What {@link TopicAdmin#ensure} found or did for one topic.
 *
 * @param topic the topic name
 * @param outcome created, already there as specified, or there but different
 * @param problems for {@link Outcome#MISMATCH}, each difference as a sentence; empty otherwise
 */
public record TopicReport(String topic, Outcome outcome, List<String> problems) {
  public TopicReport {
    problems = List.copyOf(problems);
  }

  /** The three results of ensuring a topic. */
  public enum Outcome {
    /** The topic did not exist and was created as specified. */
    CREATED,
    /** The topic existed and matches the specification. */
    EXISTS,
    /** The topic existed and differs (partitions, replication or a config); it was not changed. */
    MISMATCH
  }

  public boolean ok() {
    return outcome != Outcome.MISMATCH;
  }
}
