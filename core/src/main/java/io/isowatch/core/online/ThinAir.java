package io.isowatch.core.online;

import java.util.List;

/**
 * The values reported as read from thin air: every (key, value) whose reads were reported as
 * ThinAirRead before a writer came, so that a later writer of it is late, and the ThinAirReads
 * published, which such a writer retracts. Both are carried from state to state by a cut and
 * checkpointed (the published reads from format 5 on), so that an engine restored from a
 * checkpoint behaves exactly as the one that wrote it; a cut moves the anomalies a state listed
 * into the summary, from which a retraction then removes them.
 */
final class ThinAir {
  private final KeyValueTable reported;
  private final ThinAirReads published;

  ThinAir() {
    this(new KeyValueTable(16), new ThinAirReads());
  }

  /** A state's, continuing the values {@code reported} and the reads {@code published} earlier (a cut's or a checkpoint's). */
  ThinAir(final KeyValueTable reported, final ThinAirReads published) {
    this.reported = reported;
    this.published = published;
  }

  /** Whether reads of (k, v) were reported as ThinAirRead. */
  boolean wasReported(final int k, final long v) {
    return reported.size() > 0 && reported.get(k, v) >= 0;
  }

  void reported(final int k, final long v) {
    reported.put(k, v, 0);
  }

  /** Keeps a published ThinAirRead of (k, v) for a late writer to retract. */
  void published(final int k, final long v, final ThinAirReads.Read read) {
    published.add(k, v, read);
  }

  /** Removes and returns the published ThinAirReads of (k, v), oldest first; empty if none. */
  List<ThinAirReads.Read> takePublished(final int k, final long v) {
    return published.isEmpty() ? List.of() : published.take(k, v);
  }

  /** The reported (key, value) pairs, for a checkpoint. */
  KeyValueTable reportedValues() {
    return reported;
  }

  /** The published ThinAirReads still retractable, for a checkpoint. */
  ThinAirReads publishedReads() {
    return published;
  }
}
