package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;

/**
 * What the incremental engine publishes as transactions are processed, in publication order.
 * Nothing published is ever retracted: an anomaly is published once it is certain and part of
 * the final result (docs/streaming-design.md, "Why no anomaly is ever retracted").
 */
public sealed interface OnlineEvent {
  /** A proven anomaly, as the result will list it. */
  record AnomalyPublished(Anomaly anomaly) implements OnlineEvent {}

  /**
   * One instance of an input finding (results aggregate them per kind and key).
   *
   * @param kind what was found
   * @param key the key concerned, or null
   * @param txn the transaction concerned, or null
   * @param message a sentence for a person
   */
  record FindingPublished(FindingKind kind, String key, String txn, String message) implements OnlineEvent {}

  /**
   * A level's verdict changed (every level starts SATISFIED, as for an empty history).
   *
   * @param reason why it is UNKNOWN, when it is; null otherwise
   */
  record VerdictChanged(Level level, Verdict from, Verdict to, String reason) implements OnlineEvent {}
}
