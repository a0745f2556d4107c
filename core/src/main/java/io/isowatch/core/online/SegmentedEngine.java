package io.isowatch.core.online;

import io.isowatch.core.history.Transaction;
import java.util.List;
import java.util.Set;

/**
 * The segmenting wrapper around the {@link CheckingEngine} (docs/segmentation.md): holds the
 * current segment's engine and, when the horizon allows it, cuts, that is replaces it by the
 * next segment's: the pruned prefix is folded into the summary ({@link Segmenter}) and the
 * retained transactions are replayed into a new state. Cuts happen by themselves when the state
 * reaches {@link Horizon#cutFactor()} horizons, or when the owner asks ({@link #prune}, {@link
 * #cutForCheckpoint}); a cut made on request is recorded so that a checkpoint may follow.
 */
final class SegmentedEngine {
  private final Sequencer sequencer;
  private CheckingEngine engine;
  /** The engine does not check for a cut again before this many transactions were released. */
  private int nextPruneCheck;
  /**
   * What the latest cut's replay was told "already checked", while the state is still the one
   * that cut made (a {@link #prune} returned true and nothing changed since); null otherwise.
   */
  private CheckedReads lastCut;

  /** Starts on an empty {@code state}; the sequencer releases into whichever engine is current. */
  SegmentedEngine(final Sequencer sequencer, final OnlineState state) {
    this.sequencer = sequencer;
    this.engine = new CheckingEngine(state);
    sequencer.attach(engine, -1);
  }

  /** Starts on a checkpoint's seeded state, with its segment replayed in (a restore). */
  SegmentedEngine(final Sequencer sequencer, final OnlineState seeded, final Checkpoint c) {
    this.sequencer = sequencer;
    install(seeded, c.segment(), c.checked(), c.waiting(), c.lastReleasedPos(), c.carried());
    // The state is the checkpointed one, right after its cut: checkpointing it again gives the same bytes.
    lastCut = c.checked();
  }

  CheckingEngine engine() {
    return engine;
  }

  OnlineState state() {
    return engine.state;
  }

  /**
   * Gives one transaction to the sequencer (see {@link OnlineChecker#accept}), with the rank in
   * its session given or {@code Long.MIN_VALUE}, and cuts if one is due.
   */
  void admit(final Transaction t, final long rankGiven) {
    if (sequencer.admit(t, rankGiven, true)) {
      maybePrune();
    }
  }

  /**
   * Gives one transaction, with its rank in its session, and processes it at once: for a caller
   * that gives the transactions in π order ({@link InOrderFeed}), which is what releasing the buffer
   * after all of them would do.
   */
  void admitInOrder(final Transaction t, final long rank) {
    if (sequencer.admit(t, rank, true)) {
      sequencer.releaseAll();
      maybePrune();
    }
  }

  /**
   * Gives one transaction without a time, with its rank in its session, and processes it at once:
   * for a caller that gives a history without times in {@link TimelessOrder}'s order ({@link
   * InOrderFeed} with a {@link TimelessWindow}), which is the order a flush of all of them would
   * release them in.
   */
  void admitNow(final Transaction t, final long rank) {
    sequencer.admitNow(t, rank);
    maybePrune();
  }

  /**
   * Releases everything buffered in π order, reports every read still waiting for a writer as a
   * ThinAirRead and cuts if one is due (see {@link OnlineChecker#flush}).
   */
  void flush() {
    sequencer.releaseAll();
    engine.expireAll();
    maybePrune();
  }

  /** The engine changed since the latest cut (an accept, a flush): no checkpoint now. */
  void changed() {
    lastCut = null;
  }

  /** What the latest cut's replay was told "already checked", or null unless {@link #checkpointable()}. */
  CheckedReads lastCut() {
    return lastCut;
  }

  boolean checkpointable() {
    return lastCut != null;
  }

  /** Cuts on request: see {@link OnlineChecker#prune()}. */
  boolean prune() {
    final boolean cut = cut(true);
    if (!cut) {
      lastCut = null;
    }
    return cut;
  }

  /** See {@link OnlineChecker#cutForCheckpoint()}. */
  boolean cutForCheckpoint() {
    if (!engine.state.online.horizon().enabled()) {
      lastCut = null;
      return false;
    }
    if (lastCut == null && !cut(true)) {
      cutAt(0, true);
    }
    return true;
  }

  /** Cuts by itself when the state has reached {@link Horizon#cutFactor()} horizons (after releases). */
  void maybePrune() {
    final OnlineState s = engine.state;
    final Horizon h = s.online.horizon();
    final int released = s.txns.released();
    if (!h.enabled() || released < nextPruneCheck || released == 0) {
      return;
    }
    final long latest = s.cutPoints.latestReleasedTime();
    boolean due = h.transactions() != Horizon.UNLIMITED && released >= h.selfCutTransactions();
    if (!due && h.micros() != Horizon.UNLIMITED && latest != Long.MIN_VALUE) {
      final long oldest = s.txns.endKey(s.txns.releasedAt(0));
      due = oldest != TxnIndex.NO_END && latest - oldest >= h.selfCutMicros();
    }
    if (due && !cut(false)) {
      // Held back (pending reads, no snapshot yet): look again after a while, not at every release.
      nextPruneCheck = released + Math.max(16, released / 8);
    }
  }

  /** Cuts if the horizon allows it; with {@code record}, so that a checkpoint may follow. */
  private boolean cut(final boolean record) {
    final Horizon h = engine.state.online.horizon();
    if (!h.enabled()) {
      return false;
    }
    final int p = Segmenter.cutPosition(engine.state, h, sequencer.lastReleasedSlot());
    if (p <= 0) {
      return false;
    }
    cutAt(p, record);
    return true;
  }

  /**
   * Replaces the state by the next segment's: summary, then the retained transactions replayed.
   * With {@code record}, notes what the replay was told "already checked", for a checkpoint.
   */
  private void cutAt(final int p, final boolean record) {
    final long t0 = System.nanoTime();
    final OnlineState old = engine.state;
    final OnlineState next = Segmenter.cut(old, p, engine.results.verdicts(),
        engine.results.violatedOnlyByThinAir());
    old.carryInto(next);
    final CutReplay cut = CutReplay.forReplay(old, p);
    final SegmentTxns segment = SegmentTxns.of(old, p);
    final CheckedReads checked = record ? new CheckedReads(segment.retained()) : null;
    final ReplayOracle oracle = checked == null ? cut : new ReplayOracle() {
      @Override
      public boolean alreadyChecked(final int k, final Long v) {
        return checked.note(k, v, cut.alreadyChecked(k, v));
      }

      @Override
      public boolean alreadyChecked(final int k, final Long v, final boolean writtenInSegment) {
        return checked.note(k, v, cut.alreadyChecked(k, v, writtenInSegment));
      }
    };
    final int lastPos = sequencer.lastReleasedPos();
    final int last = lastPos < 0 ? -1 : lastPos - p;
    // A cut runs inside accept or flush (at cutFactor horizons) after releases that may have
    // published: those events belong to the call, not to the state the cut replaces.
    final List<OnlineEvent> unsent = engine.out.take();
    install(next, segment, oracle, WaitingRead.of(old, p), last, CarriedCounters.of(old));
    engine.out.carry(unsent);
    next.summary.edges += old.graph.edges.edges() - next.graph.edges.edges();
    lastCut = checked;
    final long spent = System.nanoTime() - t0;
    next.summary.cutNanos += spent;
    next.summary.lastCutNanos = spent;
  }

  /**
   * Makes {@code next}, seeded (keys, sessions, summary, findings), the engine's state: replays
   * the segment's retained transactions into it in π order with publication muted and {@code
   * oracle} saying which reads the replaced state already checked, keeps waiting only the {@code
   * waiting} reads, buffers the rest of the segment, and sets what the replay must not change.
   * The second half of a cut and the whole of a restore, so that both build the same state.
   */
  private void install(final OnlineState next, final SegmentTxns segment, final ReplayOracle oracle,
      final Set<WaitingRead> waiting, final int lastReleasedPos, final CarriedCounters carried) {
    final CheckingEngine nextEngine = new CheckingEngine(next);
    engine = nextEngine;
    next.replay = oracle;
    nextEngine.out.mute(true);
    for (int i = 0; i < segment.retained(); i++) {
      nextEngine.process(next.txns.add(segment.txns()[i], segment.ranks()[i], segment.sessions()[i], true));
    }
    nextEngine.out.take();
    nextEngine.out.mute(false);
    next.replay = null;
    // A read the replaced state had already reported (expired, or drained by a flush) must not wait again.
    next.pending.retainOnly(e -> waiting.contains(new WaitingRead(next.pending.key(e), next.pending.value(e),
        next.pending.op(e), next.txns.piPos(next.pending.reader(e)))));
    for (int i = segment.retained(); i < segment.size(); i++) {
      next.buffer.add(next.txns.add(segment.txns()[i], segment.ranks()[i], segment.sessions()[i], true));
    }
    sequencer.attach(nextEngine, lastReleasedPos);
    carried.applyTo(next);
    nextPruneCheck = 0;
  }
}
