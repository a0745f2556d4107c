package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.FindingMessages;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The incremental checker of one tenant (docs/streaming-design.md): transactions arrive in any
 * order, possibly twice; they wait in a reorder buffer and are processed in the canonical order π
 * once the watermark (latest end time seen minus the grace period) has passed them, so that what
 * is reported depends on the history only. Each processed transaction costs work proportional to
 * the part of the dependency graph it touches, never a rescan.
 *
 * <p>{@link #accept} and {@link #flush} return what they published: anomalies (each certain under
 * the declared bounds and in every later {@link #result}; a ThinAirRead whose writer still arrives
 * is retracted, {@link OnlineEvent.AnomalyRetracted}), findings and verdict changes. {@link
 * #result} reads the current state with the batch checker's semantics; after a flush, and when no
 * transaction came later than the grace period allows, it equals {@link #check} on the same
 * history. Not thread-safe: one instance per tenant, fed by one thread.
 */
public final class OnlineChecker {
  // Replaced by each cut of a segmented engine (docs/segmentation.md).
  private OnlineState s;
  private Publisher out;
  private Processor processor;
  private ResultBuilder results;
  /** The engine does not check for a cut again before this many transactions were released. */
  private int nextPruneCheck;
  private final Map<Level, Verdict> published = new EnumMap<>(Level.class);
  private long maxEnd = Long.MIN_VALUE;
  private int lastReleased = -1;
  private long nanos;
  /**
   * What the latest cut's replay was told "already checked", while the state is still the one
   * that cut made (a {@link #prune} returned true and nothing changed since); null otherwise.
   */
  private CheckedReads lastCut;

  public OnlineChecker(final CheckOptions options, final OnlineOptions online) {
    this(options, online, 0);
  }

  /** A checker expecting about that many transactions (sizes its tables up front). */
  OnlineChecker(final CheckOptions options, final OnlineOptions online, final int expectedTransactions) {
    this.s = new OnlineState(options, online, expectedTransactions);
    this.out = new Publisher(s);
    this.processor = new Processor(s, out);
    this.results = new ResultBuilder(s);
    for (final Level level : options.levels()) {
      published.put(level, Verdict.SATISFIED);
    }
  }

  /**
   * Checks a whole history as {@code isowatch check} will: in π order (the same engine, every
   * transaction accepted, then a flush), so that the result equals what a stream of the same
   * history reports.
   */
  public static CheckResult check(final History history, final CheckOptions options) {
    return BatchAdapter.check(history, options);
  }

  /**
   * Takes one transaction: ignored if its id was seen with the same content (an agent's retry),
   * reported as DUPLICATE_TXN_ID if with other content; processed at once, with a
   * LATE_TRANSACTION finding, if a transaction after it in π was already processed; buffered
   * otherwise. Then releases, in π order, every buffered transaction the watermark has passed.
   */
  public List<OnlineEvent> accept(final Transaction t) {
    return accept(t, Long.MIN_VALUE);
  }

  /**
   * As {@link #accept(Transaction)}, for a transaction that arrived at {@code arrivalMicros} (the
   * record's timestamp in the topology). When its time lies more than {@link
   * OnlineOptions#futureMicros()} ahead of its arrival, its clock cannot be trusted: it is a
   * FUTURE_EVENT_TIME finding, it does not move the watermark, and it is checked by its arrival
   * (docs/streaming.md, "No false positive from time"): π orders it by its arrival, taken as its
   * end (it was published after it ended), and its start counts as unknown, so real-time edges
   * may leave it but none enter it; SSER is decided without them. Its reads and writes are
   * checked as any transaction's.
   */
  public List<OnlineEvent> acceptAt(final Transaction t, final long arrivalMicros) {
    final long time = TxnIndex.timeKey(t);
    final long future = s.online.futureMicros();
    if (!s.online.futureBounded() || time == TxnIndex.NO_END || arrivalMicros > Long.MAX_VALUE - future
        || time <= arrivalMicros + future) {
      return accept(t);
    }
    final long started = System.nanoTime();
    final Transaction byArrival = new Transaction(t.id(), t.session(), t.seq(), t.status(), Transaction.NO_TIME,
        arrivalMicros, t.ops(), t.tenant(), t.level(), t.line());
    final int seen = s.txns.slotOf(t.id());
    if (seen >= 0) {
      // An agent's retry of the same event arrives with another timestamp: compare all but the times.
      final Transaction first = s.txns.txn(seen);
      if (sameContent(first, new Transaction(t.id(), t.session(), t.seq(), t.status(), first.start(), first.end(),
          t.ops(), t.tenant(), t.level(), t.line()))) {
        s.duplicates++;
        return finish(started);
      }
      return accept(t);
    }
    out.finding(FindingKind.FUTURE_EVENT_TIME, null, t, "transaction " + t.id() + " reports times (start "
        + t.start() + " µs, end " + t.end() + " µs) more than " + future + " µs ahead of its arrival at "
        + arrivalMicros + " µs; its clock is not trusted: it does not move the watermark, it is ordered by its"
        + " arrival, taken as its end, and its start is treated as unknown, so no real-time order leads to it");
    s.futureIds.add(t.id());
    // The finding stays with the publisher's events: the call returns it ahead of what processing adds.
    return admit(byArrival, Long.MIN_VALUE, false, started);
  }

  /**
   * As {@link #accept(Transaction)}, with the rank in its session given: the batch adapter's,
   * whose transactions have unique ids already (so they are not indexed for idempotence).
   */
  List<OnlineEvent> accept(final Transaction t, final long rankGiven) {
    return admit(t, rankGiven, true, System.nanoTime());
  }

  /** Dedups, indexes, buffers or processes one transaction; with {@code timed}, its time moves the watermark. */
  private List<OnlineEvent> admit(final Transaction t, final long rankGiven, final boolean timed, final long started) {
    final boolean idsUnique = rankGiven != Long.MIN_VALUE;
    final int seen = idsUnique ? -1 : s.txns.slotOf(t.id());
    if (seen >= 0) {
      if (sameContent(s.txns.txn(seen), t)) {
        s.duplicates++;
      } else {
        s.input++;
        out.finding(FindingKind.DUPLICATE_TXN_ID, null, t, "transaction id '" + t.id()
            + "' arrived again with different content; the first one is kept");
      }
      return finish(started);
    }
    final int session = s.sessions.idOf(t.session());
    final long rank = rankGiven != Long.MIN_VALUE ? rankGiven
        : t.hasSeq() ? t.seq() : s.sessions.nextArrivalRank(session);
    final int slot = s.txns.add(t, rank, session, !idsUnique);
    s.input++;
    if (lastReleased >= 0 && PiOrder.compare(s.txns, s.sessions, slot, lastReleased) < 0) {
      processor.late(t, "transaction " + t.id() + " arrived after " + s.txns.txn(lastReleased).id()
          + ", which follows it in the processing order, was processed (its time "
          + (TxnIndex.timeKey(t) == TxnIndex.NO_END ? "is unknown" : "is " + TxnIndex.timeKey(t) + " µs")
          + ", the latest seen " + maxEnd + " µs, the grace period " + graceText() + ")");
      release(slot);
    } else {
      s.buffer.add(slot);
    }
    final long time = TxnIndex.timeKey(t);
    if (timed && time != TxnIndex.NO_END && time > maxEnd) {
      maxEnd = time;
    }
    final long watermark = watermark();
    while (!s.buffer.isEmpty() && s.txns.endKey(s.buffer.peek()) < watermark) {
      release(s.buffer.poll());
    }
    maybePrune();
    return finish(started);
  }

  /**
   * Releases everything buffered in π order and reports every read still waiting for a writer as
   * a ThinAirRead, as a check of the whole history does at its end.
   */
  public List<OnlineEvent> flush() {
    final long started = System.nanoTime();
    if (!s.repeatsDeclared && !s.buffer.isEmpty()) {
      // Everything buffered is known now: values it writes twice are never attributed, as check does.
      final IntList slots = s.buffer.slots();
      final List<Transaction> buffered = new java.util.ArrayList<>(slots.size());
      for (int i = 0; i < slots.size(); i++) {
        buffered.add(s.txns.txn(slots.get(i)));
      }
      s.repeated = RepeatedValues.union(s.repeated, RepeatedValues.of(buffered));
    }
    while (!s.buffer.isEmpty()) {
      release(s.buffer.poll());
    }
    processor.expireAll();
    maybePrune();
    return finish(started);
  }

  /**
   * Cuts now (docs/segmentation.md): prunes every processed transaction before the retained
   * horizon, as far as pending reads and the snapshot alignment allow, and keeps a summary of
   * them. Returns whether anything was pruned; false as well when no horizon is configured. The
   * engine also cuts by itself when its state reaches {@link Horizon#cutFactor()} horizons.
   */
  public boolean prune() {
    final boolean cut = cut(true);
    if (!cut) {
      lastCut = null;
    }
    return cut;
  }

  /**
   * Makes the engine {@link #checkpointable()} now, whether or not its horizon lets anything be
   * pruned (docs/segmentation.md, "Checkpoints"), so that an owner can checkpoint on its own
   * schedule and a rebuild never replays more than that schedule's inputs. Prunes as {@link
   * #prune()} does; when that prunes nothing, cuts at the first processed position: nothing is
   * pruned, the state is rebuilt exactly as a cut rebuilds it (recording what a restore needs).
   * That changes nothing that is checked: a cut may always be placed earlier than the horizon
   * allows, and this one retains everything. Returns false, doing nothing, when no horizon is
   * set: such an engine keeps no summary to restore from.
   */
  public boolean cutForCheckpoint() {
    if (!s.online.horizon().enabled()) {
      lastCut = null;
      return false;
    }
    if (lastCut == null && !cut(true)) {
      cutAt(0, true);
    }
    return true;
  }

  /** Cuts if the horizon allows it; with {@code record}, so that a checkpoint may follow. */
  private boolean cut(final boolean record) {
    final Horizon h = s.online.horizon();
    if (!h.enabled()) {
      return false;
    }
    final int p = Segmenter.cutPosition(s, h, lastReleased);
    if (p <= 0) {
      return false;
    }
    cutAt(p, record);
    return true;
  }

  /**
   * Whether {@link #checkpoint} may be called now: the last call that changes the engine ({@link
   * #accept}, {@link #flush}, {@link #prune}) was a {@link #prune} that returned true, or there
   * was none since the engine was {@link #restore restored}. Queries ({@link #result} and the
   * counters) do not change it.
   */
  public boolean checkpointable() {
    return lastCut != null;
  }

  /**
   * The engine's whole state right after its latest cut, as bytes: summary, retained and buffered
   * transactions, what the cut's replay was told, counters, findings, published verdicts. The
   * format is versioned and documented in docs/segmentation.md ("Checkpoints"); {@link #restore}
   * reads it. Its size is linear in the retained segment, the keys and sessions, plus the two
   * filters of the summary.
   *
   * @throws IllegalStateException unless {@link #checkpointable()}
   */
  public byte[] checkpoint() {
    if (lastCut == null) {
      throw new IllegalStateException("checkpoint() needs a state right after a cut: call it right after a prune()"
          + " that returned true, before any accept() or flush()");
    }
    return CheckpointWriter.write(s, lastCut, new CheckpointWriter.CheckerFields(published, maxEnd,
        lastReleased < 0 ? -1 : s.txns.piPos(lastReleased), nanos));
  }

  /**
   * An engine equal to the one that made the checkpoint: fed the same transactions and flushes
   * afterwards, it returns the same events from accept and flush and the same {@link #result()}
   * (timings aside). The options are the caller's and may differ from the checkpointed engine's
   * (docs/segmentation.md, "Checkpoints"): the retained segment is checked from now on under them
   * (levels added are decided on the retained and later transactions only, levels dropped are no
   * longer reported, a new grace or horizon applies to the next release and cut, a new initial
   * value to keys first seen from now on); the summary's filters keep the size they were written
   * with.
   *
   * @throws CheckpointFormatException when the bytes are not a checkpoint of a supported version,
   *     are truncated or corrupt, or have trailing bytes
   */
  public static OnlineChecker restore(final CheckOptions options, final OnlineOptions online, final byte[] checkpoint) {
    return new OnlineChecker(options, online, CheckpointReader.read(checkpoint));
  }

  private OnlineChecker(final CheckOptions options, final OnlineOptions online, final Checkpoint c) {
    final SegmentTxns segment = c.segment();
    final OnlineState next = new OnlineState(options, online, Math.max(1 << 10, 2 * segment.size()), c.summary());
    for (int i = 0; i < c.sessionNames().size(); i++) {
      next.sessions.seed(c.sessionNames().get(i), c.sessionArrivals()[i]);
    }
    for (int k = 0; k < c.keyNames().size(); k++) {
      next.keys.seed(c.keyNames().get(k), next.versions, c.keyInitials().get(k));
    }
    next.findings = c.findings();
    next.thinAir = c.thinAir();
    next.repeated = c.repeated();
    next.repeatsDeclared = c.repeatsDeclared();
    install(next, segment, c.checked(), c.waiting(), c.lastReleasedPos(), c.carried());
    for (final Level level : options.levels()) {
      // A level the checkpointed engine did not decide starts as a new engine's would.
      published.put(level, c.published().getOrDefault(level, Verdict.SATISFIED));
    }
    maxEnd = c.maxEnd();
    nanos = c.nanos();
    // The state is the checkpointed one, right after its cut: checkpointing it again gives the same bytes.
    lastCut = c.checked();
  }

  /** Transactions pruned so far by cuts. */
  public long prunedTransactions() {
    return s.summary == null ? 0 : s.summary.pruned;
  }

  /** Cuts made so far. */
  public long cuts() {
    return s.summary == null ? 0 : s.summary.cuts;
  }

  /** Seconds spent in cuts so far (included in the engine's time). */
  public double pruneSeconds() {
    return s.summary == null ? 0 : s.summary.cutNanos / 1e9;
  }

  /** Transactions held now: processed and retained, plus buffered (the state size). */
  public int retainedTransactions() {
    return s.txns.released() + s.buffer.size();
  }

  /**
   * The probability, at most, that a read of a value never written is taken for a stale read
   * beyond the horizon now (the filters of retired versions answer "maybe"): 0 before the first
   * cut, at most {@link #RETIRED_FALSE_POSITIVE_BOUND} while the filters are under their cap
   * (docs/segmentation.md, "Retired versions").
   */
  public double retiredFalsePositiveRatio() {
    return s.summary == null || s.summary.cuts == 0 ? 0 : s.summary.falsePositiveProbability();
  }

  /** The bound {@link #retiredFalsePositiveRatio()} stays under while the filters are under their cap. */
  public static final double RETIRED_FALSE_POSITIVE_BOUND = HorizonSummary.FALSE_POSITIVE_BOUND;

  /** Retired versions added to the filters so far (with repeats). */
  public long retiredVersions() {
    return s.summary == null ? 0 : s.summary.overwritten.added() + s.summary.other.added();
  }

  /** Bytes the filters of retired versions hold. */
  public long retiredFilterBytes() {
    return s.summary == null ? 0 : s.summary.overwritten.bytes() + s.summary.other.bytes();
  }

  /** Reads reported as STALE_READ_BEYOND_HORIZON so far. */
  public long staleReads() {
    return s.summary == null ? 0 : s.summary.staleReads;
  }

  private void maybePrune() {
    final Horizon h = s.online.horizon();
    final int released = s.txns.released();
    if (!h.enabled() || released < nextPruneCheck || released == 0) {
      return;
    }
    boolean due = h.transactions() != Horizon.UNLIMITED && released >= h.selfCutTransactions();
    if (!due && h.micros() != Horizon.UNLIMITED && s.latestReleasedTime != Long.MIN_VALUE) {
      final long oldest = s.txns.endKey(s.txns.releasedAt(0));
      due = oldest != TxnIndex.NO_END && s.latestReleasedTime - oldest >= h.selfCutMicros();
    }
    if (due && !cut(false)) {
      // Held back (pending reads, no snapshot yet): look again after a while, not at every release.
      nextPruneCheck = released + Math.max(16, released / 8);
    }
  }

  /**
   * Replaces the state by the next segment's: summary, then the retained transactions replayed.
   * With {@code record}, notes what the replay was told "already checked", for {@link #checkpoint}.
   */
  private void cutAt(final int p, final boolean record) {
    final long t0 = System.nanoTime();
    final OnlineState old = s;
    final OnlineState next = Segmenter.cut(old, p, results.verdicts());
    next.findings = old.findings;
    next.thinAir = old.thinAir;
    next.futureIds = old.futureIds;
    next.repeated = old.repeated;
    next.repeatsDeclared = old.repeatsDeclared;
    final CutReplay cut = new CutReplay(old, p);
    final SegmentTxns segment = SegmentTxns.of(old, p);
    final CheckedReads checked = record ? new CheckedReads(segment.retained()) : null;
    final ReplayOracle oracle = checked == null ? cut : (k, v) -> checked.note(k, v, cut.alreadyChecked(k, v));
    final int last = lastReleased < 0 ? -1 : old.txns.piPos(lastReleased) - p;
    // A cut runs inside accept or flush (at cutFactor horizons) after releases that may have
    // published: those events belong to the call, not to the state the cut replaces.
    final List<OnlineEvent> unsent = out.take();
    install(next, segment, oracle, WaitingRead.of(old, p), last, CarriedCounters.of(old));
    out.carry(unsent);
    next.summary.edges += old.edges.edges() - next.edges.edges();
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
      final java.util.Set<WaitingRead> waiting, final int lastReleasedPos, final CarriedCounters carried) {
    final Publisher nextOut = new Publisher(next);
    final Processor nextProcessor = new Processor(next, nextOut);
    s = next;
    out = nextOut;
    processor = nextProcessor;
    results = new ResultBuilder(next);
    next.replay = oracle;
    nextOut.mute(true);
    for (int i = 0; i < segment.retained(); i++) {
      processed(next.txns.add(segment.txns()[i], segment.ranks()[i], segment.sessions()[i], true));
    }
    nextOut.take();
    nextOut.mute(false);
    next.replay = null;
    // A read the replaced state had already reported (expired, or drained by a flush) must not wait again.
    next.pending.retainOnly(e -> waiting.contains(new WaitingRead(next.pending.key(e), next.pending.value(e),
        next.pending.op(e), next.txns.piPos(next.pending.reader(e)))));
    for (int i = segment.retained(); i < segment.size(); i++) {
      next.buffer.add(next.txns.add(segment.txns()[i], segment.ranks()[i], segment.sessions()[i], true));
    }
    lastReleased = lastReleasedPos < 0 ? -1 : next.txns.releasedAt(lastReleasedPos);
    carried.applyTo(next);
    nextPruneCheck = 0;
  }

  /** The current state as a result (verdicts, anomalies, findings, stats; seconds spent so far). */
  public CheckResult result() {
    return results.result(nanos / 1e9);
  }

  CheckResult result(final double seconds) {
    return results.result(seconds);
  }

  /** Transactions buffered, not yet processed. */
  public int buffered() {
    return s.buffer.size();
  }

  /** External reads still waiting for a writer of the value they returned. */
  public int pendingReads() {
    return s.pending.waiting();
  }

  /** Transactions that arrived again with the same content and were ignored. */
  public long duplicatesIgnored() {
    return s.duplicates;
  }

  /** Transactions processed out of π order (each also reported as LATE_TRANSACTION). */
  public long lateTransactions() {
    return s.late;
  }

  /** Graph nodes visited by the Pearce–Kelly searches so far, all levels together. */
  long searchedNodes() {
    long n = 0;
    for (final LevelGraph g : s.graphs) {
      n += g.dag.visitedTotal();
    }
    return n;
  }

  /** Whether some value was written twice so far. */
  boolean repeatSeen() {
    return s.repeatSeen;
  }

  /** Tells the engine the values the whole history repeats (batch adapter only). */
  void declareRepeated(final RepeatedValues repeated) {
    lastCut = null;
    s.repeated = repeated;
    s.repeatsDeclared = true;
  }

  /** A transaction the batch adapter dropped because its id repeats an earlier one in the file. */
  void reportDuplicateId(final Transaction t) {
    lastCut = null;
    s.input++;
    out.finding(FindingKind.DUPLICATE_TXN_ID, null, t, FindingMessages.duplicateTxnId(t.id()));
  }

  private void release(final int slot) {
    processed(slot);
    if (lastReleased < 0 || PiOrder.compare(s.txns, s.sessions, slot, lastReleased) > 0) {
      lastReleased = slot;
    }
  }

  /** Processes a released slot and notes what a cut needs of it. */
  private void processed(final int slot) {
    processor.release(slot);
    final long time = s.txns.endKey(slot);
    if (time != TxnIndex.NO_END && time > s.latestReleasedTime) {
      s.latestReleasedTime = time;
    }
    if (s.online.horizon().onSnapshots() && Segmenter.isSnapshot(s.txns.txn(slot), s.keys.count())) {
      s.snapshots.add(s.txns.piPos(slot));
    }
  }

  private long watermark() {
    if (!s.online.graceBounded() || maxEnd == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    final long grace = s.online.graceMicros();
    return maxEnd < Long.MIN_VALUE + grace ? Long.MIN_VALUE : maxEnd - grace;
  }

  private String graceText() {
    return s.online.graceBounded() ? s.online.graceMicros() + " µs" : "unbounded (the history was flushed)";
  }

  private List<OnlineEvent> finish(final long started) {
    lastCut = null;
    if (s.online.publishEvents()) {
      // Level by level, no map built: this runs after every accepted transaction (in level order,
      // as the verdict map's).
      final boolean everyLevel = results.everyLevelViolated();
      for (final Level level : s.options.levels()) {
        final Verdict v = results.verdict(level, everyLevel);
        final Verdict before = published.put(level, v);
        if (before != v) {
          out.event(new OnlineEvent.VerdictChanged(level, before, v, v == Verdict.UNKNOWN ? results.reason(level) : null));
        }
      }
    }
    nanos += System.nanoTime() - started;
    return out.take();
  }

  /** Same transaction, whatever record it came from: everything but the source line. */
  private static boolean sameContent(final Transaction a, final Transaction b) {
    return a.id().equals(b.id()) && a.session().equals(b.session()) && a.seq() == b.seq()
        && a.status() == b.status() && a.start() == b.start() && a.end() == b.end() && a.ops().equals(b.ops())
        && Objects.equals(a.tenant(), b.tenant()) && Objects.equals(a.level(), b.level());
  }
}
