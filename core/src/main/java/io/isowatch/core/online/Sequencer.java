package io.isowatch.core.online;

import io.isowatch.core.check.FindingKind;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Puts arrivals in the canonical order π (docs/streaming-design.md, "Arrival order"): takes each
 * transaction once (an agent's retry is ignored, an id reused with other content is a
 * DUPLICATE_TXN_ID finding), indexes it, holds it in the engine's {@link ReorderBuffer} and
 * releases buffered transactions to the {@link CheckingEngine} in π order once the watermark (the
 * latest end time seen minus the grace period) has passed them. A transaction that arrives after
 * one that follows it in π was released is processed at once, as LATE_TRANSACTION; one whose time
 * lies too far ahead of its arrival is ordered by its arrival, as FUTURE_EVENT_TIME; one whose time
 * lies too far ahead of every other session's latest time ({@link FarAheadEvents}, judged as it is
 * taken) is checked as ending at the latest trusted time, as FUTURE_EVENT_TIME too. Neither moves
 * the watermark.
 */
final class Sequencer {
  private CheckingEngine engine;
  /** The latest end time seen (trusted clocks only), or {@code Long.MIN_VALUE}. */
  private long maxEnd = Long.MIN_VALUE;
  /** Each session's latest time, the reference of the far-ahead rule ({@link FarAheadEvents}). */
  private final FarAheadEvents.Latest sessionsLatest = new FarAheadEvents.Latest();
  /** The slot released last in π, or -1: later arrivals before it in π are late. */
  private int lastReleased = -1;

  /**
   * Continues on {@code next} (a new engine, or the next segment's after a cut), whose transaction
   * at π position {@code lastReleasedPos} (-1: none) is the latest released in π.
   */
  void attach(final CheckingEngine next, final int lastReleasedPos) {
    engine = next;
    lastReleased = lastReleasedPos < 0 ? -1 : next.state.txns.releasedAt(lastReleasedPos);
  }

  /** The π position of the latest released transaction, or -1. */
  int lastReleasedPos() {
    return lastReleased < 0 ? -1 : engine.state.txns.piPos(lastReleased);
  }

  /** The latest released slot, or -1 (a cut keeps it: it orders later arrivals). */
  int lastReleasedSlot() {
    return lastReleased;
  }

  long maxEnd() {
    return maxEnd;
  }

  /** Continues the watermark of a checkpointed engine. */
  void restoreMaxEnd(final long checkpointed) {
    maxEnd = checkpointed;
    // The sessions' latest times are not checkpointed: the restored watermark is every session's reference.
    sessionsLatest.saw(FarAheadEvents.Latest.RESTORED, checkpointed);
  }

  /**
   * Takes one transaction, with the rank in its session given ({@code Long.MIN_VALUE}: from its
   * seq or its arrival; given only by a {@link WholeHistoryCheck}, whose ids are unique already, so
   * they are not indexed for idempotence); with {@code timed}, its time moves the watermark. Returns false
   * when it was a retry or a reused id (nothing was released then).
   */
  boolean admit(final Transaction given, final long rankGiven, final boolean timed) {
    final OnlineState s = engine.state;
    Transaction t = given;
    final boolean idsUnique = rankGiven != Long.MIN_VALUE;
    final int seen = idsUnique ? -1 : s.txns.slotOf(t.id());
    if (seen >= 0) {
      if (sameContent(s.txns.txn(seen), t) || (timed && retryFarAhead(s.txns.txn(seen), t))) {
        s.counters.countDuplicate();
      } else {
        s.counters.countInput();
        engine.out.finding(FindingKind.DUPLICATE_TXN_ID, null, t, "transaction id '" + t.id()
            + "' arrived again with different content; the first one is kept");
      }
      return false;
    }
    final int session = s.sessions.idOf(t.session());
    boolean moves = timed;
    if (timed && rankGiven == Long.MIN_VALUE && s.online.futureBounded()) {
      final long othersLatest = sessionsLatest.othersLatest(session);
      sessionsLatest.saw(session, TxnIndex.timeKey(t));
      if (FarAheadEvents.farAhead(TxnIndex.timeKey(t), othersLatest, s.online.futureMicros())) {
        t = aheadOfOthers(t, othersLatest);
        moves = false;
      }
    }
    final long rank = rankGiven != Long.MIN_VALUE ? rankGiven
        : t.hasSeq() ? t.seq() : s.sessions.nextArrivalRank(session);
    final int slot = s.txns.add(t, rank, session, !idsUnique);
    s.counters.countInput();
    if (lastReleased >= 0 && PiOrder.compare(s.txns, s.sessions, slot, lastReleased) < 0) {
      engine.late(t, "transaction " + t.id() + " arrived after " + s.txns.txn(lastReleased).id()
          + ", which follows it in the processing order, was processed (its time "
          + (TxnIndex.timeKey(t) == TxnIndex.NO_END ? "is unknown" : "is " + TxnIndex.timeKey(t) + " µs")
          + ", the latest seen " + maxEnd + " µs, the grace period " + graceText() + ")");
      release(slot);
    } else {
      s.buffer.add(slot);
    }
    final long time = TxnIndex.timeKey(t);
    if (moves && time != TxnIndex.NO_END && time > maxEnd) {
      maxEnd = time;
    }
    final long watermark = watermark();
    while (!s.buffer.isEmpty() && s.txns.endKey(s.buffer.peek()) < watermark) {
      release(s.buffer.poll());
    }
    return true;
  }

  /**
   * Takes one transaction of a history whose ids are unique, with its rank given, and processes it
   * at once, neither buffered nor judged late: as {@link #admit} followed by a release of that one
   * transaction ({@link SegmentedEngine#admitNow}).
   */
  void admitNow(final Transaction t, final long rank) {
    final OnlineState s = engine.state;
    final int session = s.sessions.idOf(t.session());
    final int slot = s.txns.add(t, rank, session, false);
    s.counters.countInput();
    release(slot);
  }

  /**
   * Whether {@code t} is an agent's retry of {@code taken}, which was taken as far ahead of the
   * other sessions (its times were replaced): the same content times aside, and still far ahead.
   */
  private boolean retryFarAhead(final Transaction taken, final Transaction t) {
    final OnlineState s = engine.state;
    return s.online.futureBounded() && taken.start() == Transaction.NO_TIME
        && sameContent(taken, new Transaction(t.id(), t.session(), t.seq(), t.status(), taken.start(), taken.end(),
            t.ops(), t.tenant(), t.level(), t.line()))
        && FarAheadEvents.farAhead(TxnIndex.timeKey(t),
            sessionsLatest.othersLatest(s.sessions.idOf(t.session())), s.online.futureMicros());
  }

  /**
   * A transaction far ahead of every other session's latest time (docs/streaming.md, "No false
   * positive from time"; the rule of {@link FarAheadEvents}, judged on arrival): a FUTURE_EVENT_TIME
   * finding, and the same transaction checked as the whole-history check checks it, ending at the
   * latest trusted time seen ({@link #maxEnd}, never before the other session's time that judged it)
   * with its start unknown; the caller keeps it out of the watermark.
   */
  private Transaction aheadOfOthers(final Transaction t, final long othersLatest) {
    final OnlineState s = engine.state;
    final long end = Math.max(maxEnd, othersLatest);
    engine.out.finding(FindingKind.FUTURE_EVENT_TIME, null, t, "transaction " + t.id() + " reports times (start "
        + t.start() + " µs, end " + t.end() + " µs) more than " + s.online.futureMicros()
        + " µs ahead of every other session's latest time (" + othersLatest + " µs); its clock is not trusted:"
        + " it does not move the watermark, it is checked as ending at the latest trusted time seen (" + end
        + " µs) and its start is treated as unknown, so no real-time order leads to it");
    s.futureEventTime(t.id());
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), Transaction.NO_TIME, end, t.ops(), t.tenant(),
        t.level(), t.line());
  }

  /**
   * Whether {@code t}'s time lies more than {@link OnlineOptions#futureMicros()} ahead of its
   * arrival at {@code arrivalMicros}: then its clock is not trusted ({@link #admitByArrival}).
   */
  boolean clockUntrusted(final Transaction t, final long arrivalMicros) {
    final OnlineOptions online = engine.state.online;
    final long time = TxnIndex.timeKey(t);
    final long future = online.futureMicros();
    return online.futureBounded() && online.futureByArrival() && time != TxnIndex.NO_END
        && arrivalMicros <= Long.MAX_VALUE - future
        && time > arrivalMicros + future;
  }

  /** Whether a transaction with this id was taken already. */
  boolean seen(final String id) {
    return engine.state.txns.slotOf(id) >= 0;
  }

  /**
   * Whether {@code t} is a retry of the transaction taken with its id, its times aside (an agent's
   * retry of the same event arrives with another timestamp); counted as ignored if so.
   */
  boolean ignoredRetry(final Transaction t) {
    final OnlineState s = engine.state;
    final Transaction first = s.txns.txn(s.txns.slotOf(t.id()));
    if (sameContent(first, new Transaction(t.id(), t.session(), t.seq(), t.status(), first.start(), first.end(),
        t.ops(), t.tenant(), t.level(), t.line()))) {
      s.counters.countDuplicate();
      return true;
    }
    return false;
  }

  /**
   * Takes a transaction whose clock is not trusted (docs/streaming.md, "No false positive from
   * time"): a FUTURE_EVENT_TIME finding; it does not move the watermark, π orders it by its
   * arrival, taken as its end, and its start counts as unknown.
   */
  void admitByArrival(final Transaction t, final long arrivalMicros) {
    final OnlineState s = engine.state;
    final long future = s.online.futureMicros();
    engine.out.finding(FindingKind.FUTURE_EVENT_TIME, null, t, "transaction " + t.id() + " reports times (start "
        + t.start() + " µs, end " + t.end() + " µs) more than " + future + " µs ahead of its arrival at "
        + arrivalMicros + " µs; its clock is not trusted: it does not move the watermark, it is ordered by its"
        + " arrival, taken as its end, and its start is treated as unknown, so no real-time order leads to it");
    s.futureEventTime(t.id());
    final Transaction byArrival = new Transaction(t.id(), t.session(), t.seq(), t.status(), Transaction.NO_TIME,
        arrivalMicros, t.ops(), t.tenant(), t.level(), t.line());
    admit(byArrival, Long.MIN_VALUE, false);
  }

  /**
   * Releases everything buffered, in π order (a flush), those without a time in the order of {@link
   * TimelessOrder}. Unless a {@link WholeHistoryCheck} declared
   * the whole history's repeated values, the values the buffer writes twice are declared first, so
   * that reads of them are never attributed, as check does.
   */
  void releaseAll() {
    final OnlineState s = engine.state;
    if (!s.repeats.wholeHistoryDeclared() && !s.buffer.isEmpty()) {
      final IntList slots = s.buffer.slots();
      final List<Transaction> buffered = new ArrayList<>(slots.size());
      for (int i = 0; i < slots.size(); i++) {
        buffered.add(s.txns.txn(slots.get(i)));
      }
      s.repeats.declareAlso(RepeatedValues.of(buffered));
    }
    while (!s.buffer.isEmpty() && s.txns.endKey(s.buffer.peek()) != TxnIndex.NO_END) {
      release(s.buffer.poll());
    }
    if (!s.buffer.isEmpty()) {
      // Those without a time (π puts them last): in the order their dependencies give (TimelessOrder).
      final int[] timeless = new int[s.buffer.size()];
      for (int i = 0; i < timeless.length; i++) {
        timeless[i] = s.buffer.poll();
      }
      for (final int slot : TimelessOrder.order(timeless, s.txns)) {
        release(slot);
      }
    }
  }

  private void release(final int slot) {
    engine.process(slot);
    final OnlineState s = engine.state;
    if (lastReleased < 0 || PiOrder.compare(s.txns, s.sessions, slot, lastReleased) > 0) {
      lastReleased = slot;
    }
  }

  private long watermark() {
    final OnlineOptions online = engine.state.online;
    if (!online.graceBounded() || maxEnd == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    final long grace = online.graceMicros();
    return maxEnd < Long.MIN_VALUE + grace ? Long.MIN_VALUE : maxEnd - grace;
  }

  private String graceText() {
    final OnlineOptions online = engine.state.online;
    return online.graceBounded() ? online.graceMicros() + " µs" : "unbounded (the history was flushed)";
  }

  /** Same transaction, whatever record it came from: everything but the source line. */
  static boolean sameContent(final Transaction a, final Transaction b) {
    return a.id().equals(b.id()) && a.session().equals(b.session()) && a.seq() == b.seq()
        && a.status() == b.status() && a.start() == b.start() && a.end() == b.end() && a.ops().equals(b.ops())
        && Objects.equals(a.tenant(), b.tenant()) && Objects.equals(a.level(), b.level());
  }
}
