package io.isowatch.core.online;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * How late transactions arrive in a known arrival order, as the {@link OnlineChecker} judges them:
 * the smallest grace period under which none of them is a LATE_TRANSACTION.
 *
 * <p>A replay of a file knows its whole arrival order in advance. With this grace the checker
 * releases every transaction in the canonical order π while the file streams in, instead of holding
 * them all until the end-of-input flush, and it still processes exactly the sequence a flush would
 * release: a transaction is late only when one after it in π was released before it arrived;
 * released transactions end before the watermark (the latest end seen minus the grace), so one
 * whose time is at least the watermark at its arrival follows every released one in π.
 *
 * <p>The times are those the {@link Sequencer} uses (end, else start; none: never released before
 * a flush), including its far-ahead rule ({@link FarAheadEvents}, when a future bound is set): a
 * transaction far ahead of every other session's latest time is checked as ending at the latest
 * trusted time seen (so it is never late) and does not move the watermark. A transaction whose id was seen before is not admitted again and
 * counts for nothing. The judgement of a time against its arrival ({@link
 * OnlineChecker#acceptAt}) is not modelled: a caller using this must not judge by arrival.
 */
public final class ArrivalLateness {
  private ArrivalLateness() {}

  /**
   * {@link #graceMicros}, for arrivals whose release during arrival is known to report exactly what
   * their release at a final flush reports (the order-independence of docs/streaming-design.md, tested
   * by OrderIndependenceTest and ArrivalLatenessTest); empty for the others, which must be held to the
   * flush: an id that arrives again with other content (an exact retry is ignored), a value written
   * twice to a key (a read is attributed while its value is unique, and the engine then knows only
   * the transactions admitted so far), a transaction far ahead of the other sessions (its
   * FUTURE_EVENT_TIME finding is then listed in another place), and list-append histories (another
   * engine).
   */
  public static OptionalLong graceReleasingAsAFlush(final List<Transaction> arrivals, final long futureMicros) {
    final Map<String, Transaction> ids = new HashMap<>();
    final Set<String> written = new HashSet<>();
    for (final Transaction t : arrivals) {
      final Transaction first = ids.putIfAbsent(t.id(), t);
      if (first != null) {
        if (!Sequencer.sameContent(first, t)) {
          return OptionalLong.empty();
        }
        continue;
      }
      for (final Op op : t.ops()) {
        if (op.isAppend() || op.isListRead() || op.isWrite() && !written.add(op.key() + "=" + op.value())) {
          return OptionalLong.empty();
        }
      }
    }
    final long grace = lateness(arrivals, futureMicros, true);
    return grace < 0 ? OptionalLong.empty() : OptionalLong.of(grace);
  }

  /**
   * The smallest grace, in microseconds, under which no transaction of {@code arrivals} (in their
   * arrival order) arrives late: the largest amount by which a transaction's time lies behind the
   * latest watermark-moving time seen before it; 0 when times never go backwards.
   *
   * @param futureMicros the future bound ({@link OnlineOptions#futureMicros()}), {@link
   *     OnlineOptions#UNBOUNDED} for none
   */
  public static long graceMicros(final List<Transaction> arrivals, final long futureMicros) {
    return lateness(arrivals, futureMicros, false);
  }

  /** {@link #graceMicros}; with {@code noFarAhead}, -1 as soon as a transaction lies far ahead. */
  private static long lateness(final List<Transaction> arrivals, final long futureMicros, final boolean noFarAhead) {
    final Set<String> seen = new HashSet<>();
    final Map<String, Integer> sessions = new HashMap<>();
    final FarAheadEvents.Latest sessionsLatest = new FarAheadEvents.Latest();
    long maxEnd = Long.MIN_VALUE;
    long grace = 0;
    for (final Transaction t : arrivals) {
      if (!seen.add(t.id())) {
        continue;
      }
      long time = TxnIndex.timeKey(t);
      boolean moves = true;
      if (futureMicros != OnlineOptions.UNBOUNDED) {
        final int session = sessions.computeIfAbsent(t.session(), s -> sessions.size());
        final long othersLatest = sessionsLatest.othersLatest(session);
        sessionsLatest.saw(session, time);
        if (FarAheadEvents.farAhead(time, othersLatest, futureMicros)) {
          if (noFarAhead) {
            return -1;
          }
          // Checked as ending at the latest trusted time (Sequencer#aheadOfOthers): never late.
          time = Math.max(maxEnd, othersLatest);
          moves = false;
        }
      }
      if (time == TxnIndex.NO_END) {
        continue;
      }
      if (maxEnd != Long.MIN_VALUE && time < maxEnd) {
        grace = Math.max(grace, maxEnd - time);
      }
      if (moves && time > maxEnd) {
        maxEnd = time;
      }
    }
    return grace;
  }
}
