package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;

/**
 * Checkpointing of a segmented engine (docs/segmentation.md, "Checkpoints"): writes its state
 * right after its latest cut through {@link CheckpointWriter}, and rebuilds the seeded state a
 * restore replays the checkpointed segment into from what {@link CheckpointReader} read. The
 * encoding is theirs; this class only says what goes in and comes out.
 */
final class Checkpoints {
  private Checkpoints() {}

  /**
   * The bytes of the engine's state right after its latest cut, with the sequencer's watermark
   * and position, the published verdicts and the time spent.
   *
   * @throws IllegalStateException unless {@link SegmentedEngine#checkpointable()}
   */
  static byte[] write(final SegmentedEngine segments, final Sequencer sequencer, final PublishedVerdicts published,
      final long nanos, final CheckpointWriter.Format format) {
    if (!segments.checkpointable()) {
      throw new IllegalStateException("checkpoint() needs a state right after a cut: call it right after a prune()"
          + " that returned true, before any accept() or flush()");
    }
    return format.write(segments.state(), segments.lastCut(), new CheckpointWriter.CheckerFields(
        published.asMap(), sequencer.maxEnd(), sequencer.lastReleasedPos(), nanos));
  }

  /**
   * The checkpoint's state before its segment is replayed into it, under the caller's options:
   * summary, key and session tables, and what a cut carries (findings, thin-air values and published reads, repeats).
   */
  static OnlineState seeded(final CheckOptions options, final OnlineOptions online, final Checkpoint c) {
    // The run-sets' cap is configuration, not state: the restoring engine's (formats 1-3 restore empty run-sets).
    c.summary().allRuns.capAt(online.horizon().maxRuns());
    c.summary().otherRuns.capAt(online.horizon().maxRuns());
    final OnlineState next = new OnlineState(options, online, Math.max(1 << 10, 2 * c.segment().size()), c.summary());
    for (int i = 0; i < c.sessionNames().size(); i++) {
      next.sessions.seed(c.sessionNames().get(i), c.sessionArrivals()[i]);
    }
    for (int k = 0; k < c.keyNames().size(); k++) {
      next.chains.seedKey(c.keyNames().get(k), c.keyInitials().get(k));
    }
    // FUTURE_EVENT_TIME ids are not checkpointed (docs/segmentation.md): a restore starts without any.
    next.carry(c.findings(), c.thinAir(), c.thinAirPublished(), new java.util.HashSet<>(), c.repeated(), c.repeatsDeclared());
    return next;
  }
}
