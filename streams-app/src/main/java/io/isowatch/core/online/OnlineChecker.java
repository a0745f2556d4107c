package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
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
 * <p>{@link #accept} and {@link #flush} return what they published: anomalies (never retracted:
 * each is certain and in every later {@link #result}), findings and verdict changes. {@link
 * #result} reads the current state with the batch checker's semantics; after a flush, and when no
 * transaction came later than the grace period allows, it equals {@link #check} on the same
 * history. Not thread-safe: one instance per tenant, fed by one thread.
 */
public final class OnlineChecker {
  private final OnlineState s;
  private final Publisher out;
  private final Processor processor;
  private final ResultBuilder results;
  private final Map<Level, Verdict> published = new EnumMap<>(Level.class);
  private long maxEnd = Long.MIN_VALUE;
  private int lastReleased = -1;
  private long nanos;

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
   * As {@link #accept(Transaction)}, with the rank in its session given: the batch adapter's,
   * whose transactions have unique ids already (so they are not indexed for idempotence).
   */
  List<OnlineEvent> accept(final Transaction t, final long rankGiven) {
    final long started = System.nanoTime();
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
    if (time != TxnIndex.NO_END && time > maxEnd) {
      maxEnd = time;
    }
    final long watermark = watermark();
    while (!s.buffer.isEmpty() && s.txns.endKey(s.buffer.peek()) < watermark) {
      release(s.buffer.poll());
    }
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
    return finish(started);
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
    s.repeated = repeated;
    s.repeatsDeclared = true;
  }

  /** A transaction the batch adapter dropped because its id repeats an earlier one in the file. */
  void reportDuplicateId(final Transaction t) {
    s.input++;
    out.finding(FindingKind.DUPLICATE_TXN_ID, null, t,
        "transaction id '" + t.id() + "' appears more than once; ids must be unique in a history");
  }

  private void release(final int slot) {
    processor.release(slot);
    if (lastReleased < 0 || PiOrder.compare(s.txns, s.sessions, slot, lastReleased) > 0) {
      lastReleased = slot;
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
    if (s.online.publishEvents()) {
      final Map<Level, Verdict> now = results.verdicts();
      now.forEach((level, v) -> {
        final Verdict before = published.put(level, v);
        if (before != v) {
          out.event(new OnlineEvent.VerdictChanged(level, before, v, v == Verdict.UNKNOWN ? results.reason(level) : null));
        }
      });
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
