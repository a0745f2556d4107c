package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.debug.DebugTimings;
import io.isowatch.core.history.History;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.listappend.ListAppendCheck;
import io.isowatch.core.solve.BlindWriteDecision;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The whole-history check of {@link WholeHistoryCheck}, done while the history is still being read,
 * when the file lists its transactions nearly in π: the engine processes each one as soon as no
 * later one can come before it, so parsing (on the reader's thread) and checking (on this one)
 * overlap, and no sort of the whole history, no rank table and no reorder buffer of its size are
 * needed. Files written by {@code isowatch generate} (by start time) or by a recorder (by end time)
 * are nearly in π: a transaction waits here only for the ones that started before it ended.
 *
 * <p>It is a bet, checked as it goes and settled at the end; whenever the history is not one whose
 * whole-history check would give the engine the same transactions in the same order with the same
 * ranks, it stops feeding the engine and {@link #finish} runs {@link WholeHistoryCheck#check} on
 * the history read, so the result is that check's in every case. Transactions wait in a window
 * ordered by π (end time, session name, rank in session, id: {@link PiOrder#compare}) and go to the
 * engine, in that order, once their time is before the latest start read (or when the window is
 * full), so the engine's slots, session ids and processing order are those of the sorted history.
 * The bet holds when every transaction has a time, none comes before one already given to the
 * engine, a session whose transactions all have a seq lists them by non-decreasing seq (so its
 * rank by seq is its rank in the file), no transaction is a list-append one, no clock is far ahead
 * of the other sessions' ({@link FarAheadEvents}) and no value is written twice (the check would
 * run again declaring the repeats). Ids are unique: the reader rejects a repeated id.
 *
 * <p>A history whose first transaction has no time is fed in {@link TimelessOrder}'s order instead,
 * computed while reading by a {@link TimelessWindow} (which keeps its own bet, settled at the end);
 * the engine takes each transaction as it comes ({@link SegmentedEngine#admitNow}).
 *
 * <p>Read through {@link io.isowatch.core.format.HistoryIO#read(java.io.InputStream,
 * io.isowatch.core.format.HistoryFormat, ReadingSplit)}, everything but the engine runs on the
 * reader thread: the bet, the ranks, the window and, at the end, the far-ahead clocks ({@link
 * #read}, {@link #end}); the caller's thread only gives the engine what comes out of the window
 * ({@link #take}). As a {@link Consumer} (one thread) it does both in turn.
 */
public final class InOrderFeed implements ReadingSplit, Consumer<Transaction> {
  /** Transactions waiting at most; a fuller window gives its first to the engine anyway. */
  static final int WINDOW = 1 << 16;

  private final CheckOptions options;
  private final long started = System.nanoTime();
  private final int expected;

  // The caller's side: the engine.
  /** The engine fed so far; null before the first transaction and once the bet is lost. */
  private SegmentedEngine segments;

  // The reader's side: the bet, the ranks and the window.
  /** Set by the reader's side when the bet is lost; the caller's side then drops the engine. */
  private volatile boolean lost;
  /** Set by the reader's side once every transaction read has been given to the caller's side. */
  private boolean ended;
  private final Map<String, SessionRanks> sessions = new HashMap<>();
  private final PriorityQueue<Waiting> window = new PriorityQueue<>(InOrderFeed::compare);
  /** The latest start read (or time, without a start): what is before it waits no more. */
  private long watermark = Long.MIN_VALUE;
  /** The latest transaction given to the engine, or null. */
  private Waiting last;
  private int taken;
  /**
   * Set by the reader's side at the first transaction when it has no time: the history is then fed
   * in {@link TimelessOrder}'s order ({@link TimelessWindow}); read by the caller's side after it
   * was handed something.
   */
  private TimelessWindow timeless;
  /** Whether a history without times is fed while read ({@code -Disowatch.check.timeless-while-reading}). */
  private final boolean timelessAllowed =
      Boolean.parseBoolean(System.getProperty("isowatch.check.timeless-while-reading", "true"));

  /** Per session: transactions read, whether all had a seq, the latest seq. */
  private static final class SessionRanks {
    long count;
    boolean allSeq = true;
    long lastSeq;
  }

  /** A transaction read, not yet given to the engine, with its time and rank in its session. */
  private record Waiting(Transaction txn, long time, long rank) {}

  /** {@code expected}: about how many transactions will come (sizes the engine's tables; any value is correct). */
  public InOrderFeed(final CheckOptions options, final int expected) {
    this.options = options;
    this.expected = expected;
  }

  /** Both sides on this thread: {@link #read}, then {@link #take} of what it gave. */
  @Override
  public void accept(final Transaction t) {
    read(t, this::take);
  }

  /** The reader's side: keeps the bet, ranks {@code t} in its session and gives what leaves the window. */
  @Override
  public void read(final Transaction t, final ReadingSplit.Sink out) {
    taken++;
    if (lost) {
      return;
    }
    if (taken == 1 && timelessAllowed && TxnIndex.timeKey(t) == TxnIndex.NO_END) {
      // No time: the whole history is processed in TimelessOrder's order, computed here as it is read.
      timeless = new TimelessWindow();
    }
    if (timeless != null) {
      if (!timeless.read(t, out::give)) {
        lose();
      }
      return;
    }
    final Waiting w = waiting(t);
    if (w == null || (last != null && compare(w, last) <= 0)) {
      lose();
      return;
    }
    window.add(w);
    watermark = Math.max(watermark, t.start() != Transaction.NO_TIME ? t.start() : w.time());
    while (!window.isEmpty() && (window.peek().time() < watermark || window.size() > WINDOW)) {
      give(window.poll(), out);
    }
  }

  /**
   * The reader's side at the end of the input: settles the bet on what needs the whole history
   * (every transaction taken, no clock far ahead of the other sessions') and gives the rest of the
   * window.
   */
  @Override
  public void end(final History history, final ReadingSplit.Sink out) {
    // Without times (a TimelessWindow's history: it loses at the first time) no clock is far ahead.
    if (!lost && (taken != history.size()
        || (timeless == null && WholeHistoryCheck.hasUntrustedClocks(history.transactions())))) {
      lose();
    }
    if (!lost && timeless != null && !timeless.end(history.transactions(), out::give)) {
      lose();
    }
    while (!lost && !window.isEmpty()) {
      give(window.poll(), out);
    }
    ended = true;
    DebugTimings.mark("in-order feed: all given");
  }

  /** The caller's side: gives the engine the next transaction in π, with its rank in its session. */
  @Override
  public void take(final Transaction t, final long rank) {
    if (lost) {
      segments = null;
      return;
    }
    if (segments == null) {
      // Made here, not in the constructor: the reader thread is parsing by now.
      segments = new SegmentedEngine(new Sequencer(),
          new OnlineState(options, OnlineOptions.batch(), Math.max(1 << 10, expected)));
      // As the whole-history check's first run: no value declared repeated, and none to look for at the end.
      segments.state().repeats.declareWholeHistory(null);
    }
    if (timeless != null) {
      segments.admitNow(t, rank);
    } else {
      segments.admitInOrder(t, rank);
    }
  }

  /** {@code t} with its time and rank if it keeps the bet, else null. */
  private Waiting waiting(final Transaction t) {
    final long time = TxnIndex.timeKey(t);
    if (time == TxnIndex.NO_END || ListAppendCheck.isListAppend(t)) {
      return null;
    }
    final SessionRanks s = sessions.computeIfAbsent(t.session(), k -> new SessionRanks());
    if (t.hasSeq()) {
      if (s.allSeq && s.count > 0 && t.seq() < s.lastSeq) {
        return null;
      }
      s.lastSeq = t.seq();
    } else {
      s.allSeq = false;
    }
    return new Waiting(t, time, s.count++);
  }

  private void give(final Waiting w, final ReadingSplit.Sink out) {
    out.give(w.txn(), w.rank());
    last = w;
  }

  /** The bet is lost: the reader's side stops giving, the caller's side drops the engine's state. */
  private void lose() {
    lost = true;
    window.clear();
    last = null;
  }

  /** π on transactions with times ({@link PiOrder#compare}). */
  private static int compare(final Waiting a, final Waiting b) {
    int c = Long.compare(a.time(), b.time());
    if (c == 0) {
      c = a.txn().session().compareTo(b.txn().session());
    }
    if (c == 0) {
      c = Long.compare(a.rank(), b.rank());
    }
    return c != 0 ? c : a.txn().id().compareTo(b.txn().id());
  }

  /**
   * The result of {@link WholeHistoryCheck#check(History, CheckOptions)} on {@code history}
   * (everything read, of which this feed was given the transactions in file order, or none for a
   * format read without a feed). Once, on the caller's thread, after the read.
   */
  public CheckResult finish(final History history) {
    if (!ended && !lost) {
      // Used as a Consumer: the end of the input is settled here.
      end(history, this::take);
    }
    if (lost || segments == null || taken != history.size()) {
      lose();
      segments = null;
      return WholeHistoryCheck.check(history, options);
    }
    final CheckResult engine = flushed();
    if (engine == null) {
      return WholeHistoryCheck.check(history, options);
    }
    final CheckResult decided = BlindWriteDecision.decideWhole(history, options, engine);
    return decided == engine ? engine : WholeHistoryCheck.withSeconds(decided, (System.nanoTime() - started) / 1e9);
  }

  /**
   * The engine's result once flushed, or null when a value was written twice (the engine's state is
   * no longer held then: the caller checks again).
   */
  private CheckResult flushed() {
    final SegmentedEngine run = segments;
    segments = null;
    lose();
    run.flush();
    DebugTimings.mark("in-order feed: flushed");
    return run.state().repeats.seen() ? null : run.engine().result((System.nanoTime() - started) / 1e9);
  }

  /** Whether the bet still holds (tests). */
  boolean inOrderSoFar() {
    return !lost;
  }
}
