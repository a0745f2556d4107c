package io.isowatch.core.online;

import java.util.List;

/**
 * The values reported as read from thin air: every (key, value) whose reads were reported as
 * ThinAirRead before a writer came, so that a later writer of it is late (carried from state to
 * state by a cut and checkpointed), and the ThinAirReads this state published, which such a writer
 * retracts (neither carried nor checkpointed, so that an engine restored from a checkpoint behaves
 * exactly as the one that wrote it; the cut moves the anomalies it listed into the summary).
 */
final class ThinAir {
  private final KeyValueTable reported;
  private final ThinAirReads published = new ThinAirReads();

  ThinAir() {
    this(new KeyValueTable(16));
  }

  /** A state's, continuing the values {@code reported} earlier (a cut's or a checkpoint's). */
  ThinAir(final KeyValueTable reported) {
    this.reported = reported;
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

  /** What the next state of a cut starts from: the reported values, none published. */
  ThinAir carried() {
    return new ThinAir(reported);
  }
}
