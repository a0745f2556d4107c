package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.solve.BlindWriteDecision;
import io.isowatch.core.solve.MonotoneViolations;
import io.isowatch.core.solve.VersionOrderSearch;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 * #result} reads the current state as a whole history's result; after a flush, and when no
 * transaction came later than the grace period allows, it equals {@link #check} on the same
 * history. Not thread-safe: one instance per tenant, fed by one thread.
 *
 * <p>A facade over four parts, each with one job: the {@link Sequencer} (reorder buffer, watermark,
 * lateness), the {@link SegmentedEngine} (horizon, cuts), the {@link CheckingEngine} of the current
 * segment (state, per-transaction checking, publication, results) and {@link Checkpoints}. A
 * whole history goes through the same parts by {@link WholeHistoryCheck}.
 */
public final class OnlineChecker {
  private final Sequencer sequencer;
  private final SegmentedEngine segments;
  private final PublishedVerdicts published;
  private long nanos;

  public OnlineChecker(final CheckOptions options, final OnlineOptions online) {
    this.sequencer = new Sequencer();
    this.segments = new SegmentedEngine(sequencer, new OnlineState(options, online, 0));
    this.published = new PublishedVerdicts(options.levels(), Map.of());
  }

  /**
   * Checks a whole history as {@code isowatch check} does: {@link WholeHistoryCheck#check}, the
   * same engine with every transaction given in π order, then a flush, so that the result equals
   * what a stream of the same history reports.
   */
  public static CheckResult check(final History history, final CheckOptions options) {
    return WholeHistoryCheck.check(history, options);
  }

  /**
   * Takes one transaction: ignored if its id was seen with the same content (an agent's retry),
   * reported as DUPLICATE_TXN_ID if with other content; processed at once, with a
   * LATE_TRANSACTION finding, if a transaction after it in π was already processed; buffered
   * otherwise. Then releases, in π order, every buffered transaction the watermark has passed.
   */
  public List<OnlineEvent> accept(final Transaction t) {
    refuseListAppend(t);
    final long started = System.nanoTime();
    segments.admit(t, Long.MIN_VALUE);
    return finish(started);
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
    refuseListAppend(t);
    if (!sequencer.clockUntrusted(t, arrivalMicros)) {
      return accept(t);
    }
    final long started = System.nanoTime();
    if (sequencer.seen(t.id())) {
      return sequencer.ignoredRetry(t) ? finish(started) : accept(t);
    }
    // The finding stays with the publisher's events: the call returns it ahead of what processing adds.
    sequencer.admitByArrival(t, arrivalMicros);
    segments.maybePrune();
    return finish(started);
  }

  /**
   * Releases everything buffered in π order and reports every read still waiting for a writer as
   * a ThinAirRead, as a check of the whole history does at its end.
   */
  public List<OnlineEvent> flush() {
    final long started = System.nanoTime();
    flushedSinceSearch = true;
    segments.flush();
    return finish(started);
  }

  /**
   * Cuts now (docs/segmentation.md): prunes every processed transaction before the retained
   * horizon, as far as pending reads and the snapshot alignment allow, and keeps a summary of
   * them. Returns whether anything was pruned; false as well when no horizon is configured. The
   * engine also cuts by itself when its state reaches {@link Horizon#cutFactor()} horizons.
   */
  public boolean prune() {
    return segments.prune();
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
    return segments.cutForCheckpoint();
  }

  /**
   * Whether {@link #checkpoint} may be called now: the last call that changes the engine ({@link
   * #accept}, {@link #flush}, {@link #prune}) was a {@link #prune} that returned true, or there
   * was none since the engine was {@link #restore restored}. Queries ({@link #result} and the
   * counters) do not change it.
   */
  public boolean checkpointable() {
    return segments.checkpointable();
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
    return checkpoint(CheckpointWriter::write);
  }

  /** {@link #checkpoint()} in another format (tests write those of older releases with it). */
  byte[] checkpoint(final CheckpointWriter.Format format) {
    return Checkpoints.write(segments, sequencer, published, nanos, format);
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
    this.sequencer = new Sequencer();
    this.segments = new SegmentedEngine(sequencer, Checkpoints.seeded(options, online, c), c);
    // A level the checkpointed engine did not decide starts as a new engine's would.
    this.published = new PublishedVerdicts(options.levels(), c.published());
    sequencer.restoreMaxEnd(c.maxEnd());
    this.nanos = c.nanos();
  }

  /** Transactions pruned so far by cuts. */
  public long prunedTransactions() {
    return summary() == null ? 0 : summary().pruned;
  }

  /** Cuts made so far. */
  public long cuts() {
    return summary() == null ? 0 : summary().cuts;
  }

  /** Seconds spent in cuts so far (included in the engine's time). */
  public double pruneSeconds() {
    return summary() == null ? 0 : summary().cutNanos / 1e9;
  }

  /** Transactions held now: processed and retained, plus buffered (the state size). */
  public int retainedTransactions() {
    final OnlineState s = segments.state();
    return s.txns.released() + s.buffer.size();
  }

  /**
   * The probability, at most, that a read of a value never written is taken for a stale read
   * beyond the horizon now (the filters of retired versions answer "maybe"; the exact run-sets never
   * do, and the filters only hold the versions that fit no run): 0 before the first cut, at most {@link #RETIRED_FALSE_POSITIVE_BOUND} while the filters are under their cap
   * (docs/segmentation.md, "Retired versions").
   */
  public double retiredFalsePositiveRatio() {
    return summary() == null || summary().cuts == 0 ? 0 : summary().falsePositiveProbability();
  }

  /** The bound {@link #retiredFalsePositiveRatio()} stays under while the filters are under their cap. */
  public static final double RETIRED_FALSE_POSITIVE_BOUND = HorizonSummary.FALSE_POSITIVE_BOUND;

  /** Retired versions so far (with repeats): held exactly by the run-sets or added to the filters. */
  public long retiredVersions() {
    return summary() == null ? 0 : summary().versions;
  }

  /** Retired versions held exactly by the run-sets so far (with repeats); the rest went to the filters. */
  public long retiredExactVersions() {
    return summary() == null ? 0 : summary().exactVersions();
  }

  /**
   * Runs the exact run-sets of retired versions hold (docs/segmentation.md, "Retired versions"):
   * flat for values written in per-key sequences, one per value at worst, up to their cap.
   */
  public long retiredRuns() {
    return summary() == null ? 0 : summary().runs();
  }

  /** Bytes the exact run-sets of retired versions take. */
  public long retiredRunBytes() {
    return summary() == null ? 0 : summary().runBytes();
  }

  /** Bytes the filters of retired versions hold. */
  public long retiredFilterBytes() {
    return summary() == null ? 0 : summary().overwritten.bytes() + summary().other.bytes();
  }

  /** Reads reported as STALE_READ_BEYOND_HORIZON so far. */
  public long staleReads() {
    return summary() == null ? 0 : summary().staleReads;
  }

  /** The current segment's state, for tests that judge the processed history. */
  OnlineState stateForTests() {
    return segments.state();
  }

  HorizonSummary summary() {
    return segments.state().summary;
  }

  /**
   * The current state as a result (verdicts, anomalies, findings, stats; seconds spent so far).
   * Levels left open by blind writes or a value written twice are then searched ({@link
   * BlindWriteDecision}) over the processed transactions, unless a cut pruned some (the search
   * needs them all: those levels stay UNKNOWN, and the reason says so; a cut that pruned nothing,
   * as for a checkpoint, does not stop it).
   *
   * <p>The search costs time linear (or worse) in the processed history, so on a long stream it
   * is rationed (docs/streaming-design.md, "Blind writes on a long stream"): it runs again only
   * when the state changed since the last search and either the history is at most {@link
   * #BLIND_SEARCH_ALWAYS_BELOW} processed transactions, or at least m / {@link
   * #BLIND_SEARCH_CREDIT} transactions were processed since the last search (m the size that
   * search covered), or the input was flushed since, or nothing changed since the previous call
   * (the stream is quiet). A search over n = m + d transactions then follows d &gt;= m / credit
   * new ones, so n &lt;= (credit + 1) d: each processed transaction pays for at most {@link
   * #BLIND_SEARCH_CREDIT} + 1 transactions searched, whatever the number of calls. And as a
   * search may cost more than linear time, each processed transaction also earns {@link
   * #BLIND_SEARCH_NANOS_PER_TXN} of search time: a search waits until the transactions since the
   * last one earned that one's time scaled by the sizes. (Each search is also bounded by the
   * solver budget, {@link CheckOptions#solverBudget()}.) Meanwhile the levels the search decides
   * are UNKNOWN with a reason saying the search is deferred and what the last one found: never
   * the last answer, which later transactions may have changed.
   */
  public CheckResult result() {
    final CheckResult engine = segments.engine().result(nanos / 1e9);
    final OnlineState s = segments.state();
    // A cut that pruned nothing (e.g. for a checkpoint) keeps every transaction: the search still applies.
    if (s.summary != null && s.summary.pruned > 0) {
      deferred = false;
      // The witness is not used past a cut that pruned: drop it, and the pruned transactions it references.
      witness = null;
      witnessState = null;
      return afterCut(engine, s.summary.pruned);
    }
    if (!BlindWriteDecision.appliesWhole(s.options, engine)) {
      deferred = false;
      return engine;
    }
    // Levels settled without a search: by the appended version order (a checked witness) or by a
    // violation an earlier search proved that no later transaction can remove.
    final CheckResult known = settledWithoutSearch(s, engine);
    if (known != engine && BlindWriteDecision.classicSettled(known)) {
      deferred = false;
      settledResults++;
      return known;
    }
    // The processed count too: a flush releases buffered transactions without admitting any.
    final List<Object> key = List.of(s.txns.size(), s.txns.released(), s.counters.input(), engine.verdicts(),
        engine.reasons(), engine.anomalies().size(), engine.findings().size());
    final boolean quiet = key.equals(askedKey);
    askedKey = key;
    if (key.equals(decidedKey)) {
      deferred = false;
      return decided == null ? engine : decided;
    }
    final long n = s.txns.released();
    // Time earned by the transactions processed since the last search; the next search is
    // expected to cost the last one's time scaled by the sizes (it is at least linear).
    final long earned = saturatedTimes(n - searchedAt, searchBudget.nanosPerTxn());
    final long expected = searchedAt == 0 ? 0 : (long) (searchNanos * ((double) n / searchedAt));
    // The witness stopped holding a level since the last search (a cycle of the appended order, or
    // something it does not model): one search now, whatever the budget, so that a violation it
    // proves is kept (MonotoneViolations) instead of the level staying deferred. At most
    // WITNESS_SEARCHES per segment state (a witness that took over a search's order may lose a level
    // again): past them the budget alone decides, so the search's cost stays linear in the stream.
    final int holding = witnessHolding();
    // Past PART_SEARCH_ABOVE processed transactions a lost level is searched on a bounded part of the
    // history only (the last ones processed and the writers they read from): a violation found there is
    // the stream's (MonotoneViolations.ofPart) and is kept; otherwise the budget decides, as for any level.
    // A part search that proved nothing is tried again, on the part then processed last, once half
    // the smaller window is new and the new transactions earned its time (at the same rate as the
    // whole search's, on an account of its own).
    final boolean lostNow = settleWithoutSearch && witness != null && holding < holdingAtSearch;
    final boolean partDue = settleWithoutSearch && witness != null && partPending
        && (n - partSearchedAt) * 2 >= partWindows[0]
        && saturatedTimes(n - partSearchedAt, partNanosPerTxn) >= partNanos;
    if ((lostNow || partDue) && n > partSearchAbove && !flushedSinceSearch && MonotoneViolations.monotone(engine)) {
      holdingAtSearch = Math.min(holdingAtSearch, holding);
      final long partStarted = System.nanoTime();
      final CheckResult proved = searchPart(s, engine, known);
      partNanos = System.nanoTime() - partStarted;
      partSearchedAt = n;
      partPending = !BlindWriteDecision.classicSettled(proved);
      if (proved != known && BlindWriteDecision.classicSettled(proved)) {
        deferred = false;
        settledResults++;
        return proved;
      }
      if (n > searchBudget.alwaysBelow() && !quiet
          && ((n - searchedAt) * searchBudget.credit() < searchedAt || earned < expected)) {
        deferred = true;
        return deferredResult(proved, n);
      }
    }
    final boolean witnessLost = settleWithoutSearch && witness != null && holding < holdingAtSearch
        && witnessSearchesHere < WITNESS_SEARCHES;
    if (n > searchBudget.alwaysBelow() && !flushedSinceSearch && !quiet && !witnessLost
        && ((n - searchedAt) * searchBudget.credit() < searchedAt || earned < expected)) {
      deferred = true;
      return deferredResult(known, n);
    }
    decidedKey = key;
    holdingAtSearch = holding;
    if (witnessLost) {
      witnessSearches++;
      witnessSearchesHere++;
    }
    searchedAt = n;
    flushedSinceSearch = false;
    partPending = false;
    searches++;
    final long started = System.nanoTime();
    final CheckResult searched = BlindWriteDecision.decideWhole(ProcessedHistory.of(s), s.options, known);
    decided = searched == engine ? null : searched;
    lastFound = found(engine, searched);
    deferred = false;
    violations = MonotoneViolations.of(engine, searched, violations, allTimed);
    adoptSearchedOrder(s, engine, searched);
    searchNanos = System.nanoTime() - started; // the budget counts the second search of a taken-over order too
    return decided == null ? engine : decided;
  }

  /**
   * {@code engine} with the levels the appended version order's witness proves SATISFIED and
   * those a kept violation proves VIOLATED filled in; {@code engine} itself when neither applies.
   * After a flush the kept violation is not used, so that the flushed result is the whole check's
   * (the search runs: its counterexample is over every transaction, not a prefix).
   */
  private CheckResult settledWithoutSearch(final OnlineState s, final CheckResult engine) {
    if (!settleWithoutSearch) {
      return engine;
    }
    syncWitness(s);
    final CheckResult kept = flushedSinceSearch || violations == null ? engine
        : violations.applyTo(engine, s.options, allTimed);
    final Level holds = witness.sserHolds() ? Level.SSER : witness.serHolds() ? Level.SER
        : witness.siHolds() ? Level.SI : null;
    return holds == null ? kept : BlindWriteDecision.withSatisfied(kept, holds);
  }

  /**
   * The bounded search of a level the witness lost ({@link #result()}): the committed transactions
   * among the last {@link #partWindows} processed and stand-ins of the writers they read from
   * ({@link ProcessedHistory#part}), searched for SI and SER violations (the smaller window first,
   * the larger only when it proves nothing). A violation is kept ({@link
   * MonotoneViolations#ofPart}) and {@code known} returned with it; {@code known} itself otherwise.
   */
  private CheckResult searchPart(final OnlineState s, final CheckResult engine, final CheckResult known) {
    final java.util.Set<Level> open = java.util.EnumSet.noneOf(Level.class);
    for (final Level level : List.of(Level.SI, Level.SER)) {
      if (known.verdicts().get(level) == Verdict.UNKNOWN) {
        open.add(level);
      }
    }
    if (open.isEmpty()) {
      return known;
    }
    final long started = System.nanoTime();
    try {
      int tried = 0;
      for (final int window : partWindows) {
        if (window <= tried) {
          continue;
        }
        tried = window;
        partSearches++;
        final Map<String, Transaction> byId = new java.util.HashMap<>();
        final History part = ProcessedHistory.part(s, window, s.options.initialValue(), byId);
        if (part == null) {
          return known;
        }
        final MonotoneViolations kept = MonotoneViolations.ofPart(part, byId, Math.min(window, s.txns.released()),
            s.options, engine, open, violations);
        if (kept != violations) {
          violations = kept;
          partProofs++;
          return settledWithoutSearch(s, engine);
        }
        if (window >= s.txns.released()) {
          return known;
        }
      }
      return known;
    } finally {
      partSearchNanos += System.nanoTime() - started;
    }
  }

  /**
   * When the search found SER or SI SATISFIED where the witness no longer holds it (its appended
   * order has a cycle the search avoided), a witness rebuilt on the search's order: the processed
   * transactions fed in a topological order of that order's graph ({@link
   * VersionOrderSearch#satisfyingFeed}, a second search of the same history), so that later
   * transactions are appended to it and later results are settled without a search until it has a
   * cycle too. The new witness checks its order edge by edge like any other (a feed order it cannot
   * use only leaves it holding less); it replaces the old one only when it holds more.
   */
  private void adoptSearchedOrder(final OnlineState s, final CheckResult engine, final CheckResult searched) {
    if (!settleWithoutSearch || witness == null || witness.stoppedBy() != null || !MonotoneViolations.monotone(engine)) {
      return;
    }
    final int holding = witnessHolding();
    final Level level = holding < 2 && searched.verdicts().get(Level.SER) == Verdict.SATISFIED ? Level.SER
        : holding < 1 && searched.verdicts().get(Level.SI) == Verdict.SATISFIED ? Level.SI : null;
    if (level == null) {
      return;
    }
    final List<Transaction> feed = VersionOrderSearch.satisfyingFeed(ProcessedHistory.of(s), level,
        s.options.initialValue(), s.options.rtSkewMicros(), s.options.solverBudget());
    if (feed == null) {
      return;
    }
    final TxnIndex txns = s.txns;
    final AppendOrderWitness rebuilt = new AppendOrderWitness(s.options.initialValue(), s.options.rtSkewMicros());
    final Map<String, Long> ranks = new HashMap<>();
    feed.forEach(t -> ranks.put(t.id(), -1L));
    for (int i = 0; i < txns.released(); i++) {
      final int slot = txns.releasedAt(i);
      final Transaction t = txns.txn(slot);
      if (ranks.containsKey(t.id())) {
        ranks.put(t.id(), txns.rank(slot));
      } else if (t.status() == TxnStatus.COMMITTED) {
        return; // a committed transaction the search did not count: not a feed of this prefix
      } else {
        rebuilt.feed(t, txns.rank(slot)); // not committed: only remembers its values
      }
    }
    for (final Transaction t : feed) {
      rebuilt.feed(t, ranks.get(t.id()));
    }
    final AppendOrderWitness old = witness;
    witness = rebuilt;
    if (witnessHolding() <= holding) {
      witness = old;
      return;
    }
    adoptedOrders++;
    holdingAtSearch = witnessHolding();
  }

  /** The levels the witness still holds: 3 SSER (and all), 2 SER and SI, 1 SI, 0 none (or no witness). */
  private int witnessHolding() {
    if (!settleWithoutSearch || witness == null) {
      return 0;
    }
    return witness.sserHolds() ? 3 : witness.serHolds() ? 2 : witness.siHolds() ? 1 : 0;
  }

  /** Feeds the witness every transaction processed since; a new one when the state was rebuilt (a cut, a restore). */
  private void syncWitness(final OnlineState s) {
    final TxnIndex txns = s.txns;
    if (witness == null || witnessState != s || fedToWitness > txns.released()) {
      witness = new AppendOrderWitness(s.options.initialValue(), s.options.rtSkewMicros());
      witnessState = s;
      fedToWitness = 0;
      allTimed = true;
      holdingAtSearch = 3;
      witnessSearchesHere = 0;
      partPending = false;
    }
    for (; fedToWitness < txns.released(); fedToWitness++) {
      final int slot = txns.releasedAt(fedToWitness);
      final Transaction t = txns.txn(slot);
      allTimed &= t.start() != Transaction.NO_TIME && t.end() != Transaction.NO_TIME && t.end() >= t.start();
      witness.feed(t, txns.rank(slot));
    }
  }

  /**
   * How the search of version orders is rationed on a stream ({@link #result()}): histories of at
   * most {@code alwaysBelow} processed transactions are searched on every call after a change;
   * larger ones once {@code m / credit} transactions were processed since the last search (which
   * covered m).
   */
  record SearchBudget(int credit, long alwaysBelow, long nanosPerTxn) {
    SearchBudget {
      if (credit < 1 || alwaysBelow < 0 || nanosPerTxn < 0) {
        throw new IllegalArgumentException("search budget: credit >= 1, alwaysBelow >= 0, nanosPerTxn >= 0");
      }
    }
  }

  private static long saturatedTimes(final long a, final long b) {
    final long hi = Math.multiplyHigh(a, b);
    final long lo = a * b;
    return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
  }

  /** Transactions searched at most per transaction processed, on a history past {@link #BLIND_SEARCH_ALWAYS_BELOW}. */
  public static final int BLIND_SEARCH_CREDIT = 8;
  /** Processed transactions up to which the search runs on every call after a change. */
  public static final long BLIND_SEARCH_ALWAYS_BELOW = 2_000;
  /**
   * Search time each processed transaction earns, in nanoseconds, past {@link
   * #BLIND_SEARCH_ALWAYS_BELOW}: a search runs once the transactions since the last one earned
   * that search's time scaled by the sizes, so the search adds about this much per transaction.
   */
  public static final long BLIND_SEARCH_NANOS_PER_TXN = 100_000;

  private SearchBudget searchBudget = new SearchBudget(BLIND_SEARCH_CREDIT, BLIND_SEARCH_ALWAYS_BELOW,
      BLIND_SEARCH_NANOS_PER_TXN);
  private long searchNanos;
  private List<Object> decidedKey;
  private List<Object> askedKey;
  private CheckResult decided;
  private long searchedAt;
  private boolean flushedSinceSearch;
  private boolean deferred;
  private long searches;
  private String lastFound;
  private AppendOrderWitness witness;
  private OnlineState witnessState;
  private int fedToWitness;
  /** Every transaction processed has a start and an end (a kept SSER violation alone needs it). */
  private boolean allTimed = true;
  private MonotoneViolations violations;
  private long settledResults;
  /** {@link #witnessHolding()} at the last search: a drop below it searches at once (see {@link #result()}). */
  private int holdingAtSearch = 3;
  private long witnessSearches;
  /** Searches run at once for the current segment state (a cut or restore starts a new one). */
  private int witnessSearchesHere;
  /** Searches run at once, outside the budget, because the witness lost a level: at most this many per segment state. */
  static final int WITNESS_SEARCHES = 3;
  private long adoptedOrders;
  /**
   * Processed transactions past which a level the witness lost is searched on a part of the
   * history ({@link #searchPart}) instead of the whole: below, the whole search costs about what
   * the part's would.
   */
  static final long PART_SEARCH_ABOVE = 4_000;
  /** The windows of the bounded search, tried in order until one proves a violation. */
  static final int[] PART_WINDOWS = {1_000, 4_000};
  private long partSearchAbove = PART_SEARCH_ABOVE;
  private long partNanosPerTxn = BLIND_SEARCH_NANOS_PER_TXN;
  private int[] partWindows = PART_WINDOWS;
  private long partSearches;
  private long partProofs;
  private long partSearchNanos;
  /** A part search proved too little: it is tried again ({@link #result()}). */
  private boolean partPending;
  private long partSearchedAt;
  /** The last part search's time, which the transactions since must earn before the next. */
  private long partNanos;

  /** Tests: the bounded search's threshold and windows. */
  void partSearch(final long above, final int... windows) {
    this.partSearchAbove = above;
    this.partWindows = windows.clone();
  }

  /** Tests: the time each processed transaction earns for the next part search (default: the whole search's rate). */
  void partSearchRate(final long nanosPerTxn) {
    this.partNanosPerTxn = nanosPerTxn;
  }

  /** Searches of a part of the history run so far ({@link #searchPart}), one per window tried. */
  long partSearches() {
    return partSearches;
  }

  /** Bounded searches that proved a violation. */
  long partProofs() {
    return partProofs;
  }

  /** Nanoseconds spent in bounded searches (the part's assembly included). */
  long partSearchNanos() {
    return partSearchNanos;
  }

  private boolean settleWithoutSearch = true;

  /** Tests of the rationing alone: every level left to the search, as before the witness and kept violations. */
  void settleWithoutSearch(final boolean on) {
    this.settleWithoutSearch = on;
  }

  /** Results whose blind-write levels were all settled without a search (witness or kept violation). */
  long settledWithoutSearch() {
    return settledResults;
  }

  /** The appended version order's witness, for tests (null before the first result). */
  AppendOrderWitness witness() {
    return witness;
  }

  /** How many processed transactions (the first ones in processing order) the witness was fed, for tests. */
  int fedToWitness() {
    return fedToWitness;
  }

  /** Tests: another budget (tiny ones show the search is not re-run per record). */
  void searchBudget(final SearchBudget budget) {
    this.searchBudget = budget;
  }

  /** Searches run at once, outside the budget, because the witness stopped holding a level. */
  long witnessSearches() {
    return witnessSearches;
  }

  /** Times the witness took over a search's satisfying version order ({@link #result()}). */
  long adoptedOrders() {
    return adoptedOrders;
  }

  /** Searches of version orders run by {@link #result()} so far. */
  long blindSearches() {
    return searches;
  }

  /**
   * Whether the last {@link #result()} left levels UNKNOWN because the search of version orders
   * was deferred by its budget: asking again without new input runs it (the stream is quiet). The
   * streams app's verdict publisher does so at its next punctuation.
   */
  public boolean searchDeferred() {
    return deferred;
  }

  private CheckResult deferredResult(final CheckResult engine, final long n) {
    final long next = Math.max(1, (searchedAt + searchBudget.credit() - 1) / searchBudget.credit() - (n - searchedAt));
    final String note = "The search of version orders left open by blind writes or a value written twice is deferred "
        + "on this stream (budget: past " + searchBudget.alwaysBelow() + " processed transactions, a search over m "
        + "is followed by the next after at least m/" + searchBudget.credit() + " new ones, each earning "
        + searchBudget.nanosPerTxn() / 1_000 + " µs of search time): " + n + " transactions processed, "
        + (searches == 0 ? "none searched yet" : "the last search, over " + searchedAt + ", found " + lastFound
            + " (later transactions may change that)")
        + "; it runs after " + next + " or more new ones, at a flush, or when the input is quiet.";
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(engine.reasons());
    for (final Map.Entry<Level, Verdict> e : engine.verdicts().entrySet()) {
      if (e.getValue() == Verdict.UNKNOWN) {
        reasons.merge(e.getKey(), note, (was, add) -> was + " " + add);
      }
    }
    return new CheckResult(engine.verdicts(), reasons, engine.anomalies(), engine.findings(), engine.stats());
  }

  /**
   * The engine's result after a cut pruned transactions, the levels blind writes or a value
   * written twice leave UNKNOWN saying why they are not searched: the search needs every
   * transaction (docs/streaming-design.md, "Blind writes on a long stream").
   */
  private static CheckResult afterCut(final CheckResult engine, final long pruned) {
    if (engine.findings().stream().noneMatch(f -> f.kind() == FindingKind.BLIND_WRITE
        || f.kind() == FindingKind.NON_UNIQUE_WRITE)) {
      return engine;
    }
    final String note = "Version orders left open by blind writes or a value written twice are not searched once a "
        + "cut has pruned transactions (" + pruned + " so far): the search needs every transaction, and a cycle may "
        + "pass through pruned ones.";
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(engine.reasons());
    boolean any = false;
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI)) {
      if (engine.verdicts().get(level) == Verdict.UNKNOWN) {
        reasons.merge(level, note, (was, add) -> was + " " + add);
        any = true;
      }
    }
    return any ? new CheckResult(engine.verdicts(), reasons, engine.anomalies(), engine.findings(), engine.stats())
        : engine;
  }

  /** What a search settled, for the reason of a later deferred result: "SER SATISFIED, SSER VIOLATED". */
  private static String found(final CheckResult engine, final CheckResult searched) {
    final StringBuilder b = new StringBuilder();
    final Level[] levels = Level.values();
    for (int i = levels.length - 1; i >= 0; i--) { // strongest first
      final Verdict v = searched.verdicts().get(levels[i]);
      if (v != null && engine.verdicts().get(levels[i]) == Verdict.UNKNOWN) {
        b.append(b.length() == 0 ? "" : ", ").append(levels[i]).append(' ').append(v);
      }
    }
    return b.length() == 0 ? "nothing decided" : b.toString();
  }

  /** Transactions buffered, not yet processed. */
  public int buffered() {
    return segments.state().buffer.size();
  }

  /** External reads still waiting for a writer of the value they returned. */
  public int pendingReads() {
    return segments.state().pending.waiting();
  }

  /** Transactions that arrived again with the same content and were ignored. */
  public long duplicatesIgnored() {
    return segments.state().counters.duplicates();
  }

  /** Transactions processed out of π order (each also reported as LATE_TRANSACTION). */
  public long lateTransactions() {
    return segments.state().counters.late();
  }

  /** Graph nodes visited by the Pearce–Kelly searches so far, all levels together. */
  long searchedNodes() {
    return segments.state().graph.visitedNodes();
  }

  /** How many level graphs the current segment has built ({@link DependencyGraph}: weaker ones are deferred). */
  int builtLevelGraphs() {
    return segments.state().graph.built();
  }

  /** Whether some value was written twice so far. */
  boolean repeatSeen() {
    return segments.state().repeats.seen();
  }

  private List<OnlineEvent> finish(final long started) {
    segments.changed();
    final CheckingEngine engine = segments.engine();
    if (engine.state.online.publishEvents()) {
      published.publishChanges(engine);
    }
    nanos += System.nanoTime() - started;
    return engine.take();
  }

  /**
   * List-append transactions are decided on the whole history only ({@link
   * io.isowatch.core.listappend.ListAppendCheck}); callers turn this into an input error.
   *
   * @throws IllegalArgumentException for a transaction with an append or a list read
   */
  private static void refuseListAppend(final Transaction t) {
    if (io.isowatch.core.listappend.ListAppendCheck.isListAppend(t)) {
      throw new IllegalArgumentException(io.isowatch.core.online.ListAppendOnlineChecker.refusedBySegmentedEngine(t));
    }
  }
}
