package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;

/**
 * What the incremental engine publishes as transactions are processed, in publication order.
 * An anomaly is published once it is certain under the declared bounds and part of the final
 * result (docs/streaming-design.md, "Why no anomaly is ever retracted"); the one exception is a
 * ThinAirRead whose writer arrives beyond every bound anyway: it is then retracted
 * ({@link AnomalyRetracted}, docs/streaming.md, "No false positive from time").
 */
public sealed interface OnlineEvent {
  /** A proven anomaly, as the result will list it. */
  record AnomalyPublished(Anomaly anomaly) implements OnlineEvent {}

  /**
   * An anomaly published earlier that the history no longer proves: its proof rested on the absence
   * of a transaction, which has arrived since. It is no longer in any later result.
   *
   * @param anomaly the anomaly exactly as it was published (same content, so the same id)
   * @param causeTxn the id of the transaction whose arrival invalidates it
   * @param reason a sentence for a person
   */
  record AnomalyRetracted(Anomaly anomaly, String causeTxn, String reason) implements OnlineEvent {}

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
