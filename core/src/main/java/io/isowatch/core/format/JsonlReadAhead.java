package io.isowatch.core.format;

import io.isowatch.core.debug.DebugTimings;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a JSONL history on a thread of its own, ahead of the caller, so that splitting and parsing
 * lines (the reader thread) overlaps with what the caller does with the transactions (the engine):
 * on two cores both go on at once. Transactions come in batches, in file order, through a bounded
 * queue: at most {@value #QUEUE_BATCHES} batches of {@value #BATCH_TXNS} wait, so memory stays
 * bounded whatever the input's length.
 *
 * <p>What the reader thread meets ends the stream where it met it: {@link #next} first returns the
 * transactions before it, then throws it as {@link JsonlHistoryReader#read} would have thrown it
 * ({@link InvalidHistoryException} or {@link IOException} as they are; a {@link RuntimeException} or
 * {@link Error}, a bug or no memory left, rethrown in the caller's thread, so the caller's handling
 * of a failed command applies). Blank lines are skipped; each transaction's {@link Transaction#line()}
 * is its line. {@link #close} stops the reader thread, e.g. when the caller fails first. One caller.
 *
 * <p>The reader thread can die without handing its end over: an {@link OutOfMemoryError} thrown
 * again while it hands over the first one, for instance. The caller never waits for it for ever: it
 * waits in slices of {@value #LIVENESS_POLL_MS} ms and, once the thread is gone and the queue is
 * empty, throws what ended the thread (kept before any allocation could fail again), or an
 * {@link IllegalStateException} saying the reader vanished. Without this a heap too small for the
 * history hung {@code isowatch check} instead of ending it with exit 3 (seen in CI).
 *
 * <p>With a {@link Stage}, the reader thread also does the caller's first steps on each
 * transaction (e.g. collecting the history, ordering it for the engine): the stage sees every
 * transaction in file order and hands over what it chooses, each with a {@code long} tag ({@link
 * #tag}), so that the caller's thread does only what must be done there.
 */
public final class JsonlReadAhead implements AutoCloseable {
  static final int BATCH_TXNS = 2048;
  static final int QUEUE_BATCHES = 4;
  static final long LIVENESS_POLL_MS = 200;

  private final BlockingQueue<Batch> queue;
  private final Thread thread;
  private volatile boolean closed;
  private boolean ended;
  private Throwable pendingFailure;
  /** What ended the reader thread; written before the hand-over, which may itself fail. */
  private volatile Throwable readerFailure;
  private final Handover handover;
  private final Stage stage;
  /** The tags of the batch {@link #next} returned last. */
  private long[] tags = NO_TAGS;
  private static final long[] NO_TAGS = new long[0];

  /** What the reader thread hands over: transactions (with their tags), then possibly the failure that ended them. */
  record Batch(List<Transaction> txns, long[] tags, Throwable failure, boolean last) {}

  /**
   * Work done on the reader thread on each transaction parsed, in file order, before anything is
   * handed over; what it gives to its {@link ReadingSplit.Sink} is what {@link #next} returns, in the order given.
   */
  public interface Stage {
    /** A transaction parsed; throwing ends the input there, as a line the reader refused would. */
    void read(Transaction t, ReadingSplit.Sink out) throws InvalidHistoryException;

    /** The end of the input (not called when a failure ended it). */
    void end(ReadingSplit.Sink out) throws InvalidHistoryException;
  }

  /**
   * A format's reader run on the reader thread: it reads the whole input and gives each transaction
   * to {@code out}, in the order the history lists them, stopping early when {@code out} says so.
   */
  @FunctionalInterface
  public interface Source {
    void readAll(Emit out) throws IOException, InvalidHistoryException;
  }

  /** Where a {@link Source} gives its transactions. */
  @FunctionalInterface
  public interface Emit {
    /** Takes the next transaction; false when nothing more is wanted (the caller closed the reading). */
    boolean accept(Transaction t) throws InvalidHistoryException;
  }

  /** Hands every transaction over as it is parsed, with tag 0. */
  private static final Stage EACH = new Stage() {
    @Override
    public void read(final Transaction t, final ReadingSplit.Sink out) {
      out.give(t, 0);
    }

    @Override
    public void end(final ReadingSplit.Sink out) {}
  };

  /** How the reader thread puts a batch in the queue; a seam for tests of a thread that dies. */
  @FunctionalInterface
  interface Handover {
    /** Offers {@code b} to {@code queue} within the time given; false if it did not fit. */
    boolean offer(BlockingQueue<Batch> queue, Batch b, long timeoutMs) throws InterruptedException;
  }

  /** Starts reading {@code in} (consumed, not closed) with the given limits. */
  public JsonlReadAhead(final Reader in, final InputLimits limits) {
    this(in, limits, (queue, b, timeoutMs) -> queue.offer(b, timeoutMs, TimeUnit.MILLISECONDS));
  }

  JsonlReadAhead(final Reader in, final InputLimits limits, final Handover handover) {
    this(in, limits, handover, EACH, QUEUE_BATCHES);
  }

  /**
   * Starts reading {@code in} (consumed, not closed), the reader thread running {@code stage} on
   * each transaction; at most {@code queueBatches} batches wait for the caller ({@link
   * Integer#MAX_VALUE}: as many as the reader makes, for a caller that keeps every transaction
   * anyway, so that the reader never waits for it).
   */
  public JsonlReadAhead(final Reader in, final InputLimits limits, final Stage stage, final int queueBatches) {
    this(in, limits, (queue, b, timeoutMs) -> queue.offer(b, timeoutMs, TimeUnit.MILLISECONDS), stage, queueBatches);
  }

  private JsonlReadAhead(final Reader in, final InputLimits limits, final Handover handover, final Stage stage,
      final int queueBatches) {
    this(jsonl(in, limits), handover, stage, queueBatches, "isowatch-jsonl-reader");
  }

  /**
   * Starts reading with {@code source}, another format's reader, on the reader thread, which runs
   * {@code stage} on each transaction the source gives, in the order given; otherwise as {@link
   * #JsonlReadAhead(Reader, InputLimits, Stage, int)} (what the source throws ends the input there).
   */
  public JsonlReadAhead(final Source source, final Stage stage, final int queueBatches, final String threadName) {
    this(source, (queue, b, timeoutMs) -> queue.offer(b, timeoutMs, TimeUnit.MILLISECONDS), stage, queueBatches,
        threadName);
  }

  private JsonlReadAhead(final Source source, final Handover handover, final Stage stage, final int queueBatches,
      final String threadName) {
    this.handover = handover;
    this.stage = stage;
    this.queue = new LinkedBlockingQueue<>(queueBatches);
    this.thread = new Thread(() -> readAll(source), threadName);
    // Never keeps the JVM alive: a caller that stopped listening has already failed or finished.
    thread.setDaemon(true);
    // A failure outside readAll's own catch (the hand-over of a failure failing again) still has a name.
    thread.setUncaughtExceptionHandler((t, e) -> {
      if (readerFailure == null) {
        readerFailure = e;
      }
    });
    thread.start();
  }

  /**
   * The next batch in file order, never empty; an empty list at the end of input. Throws what the
   * reader met once the transactions before it have been returned.
   */
  public List<Transaction> next() throws IOException, InvalidHistoryException {
    while (!ended) {
      if (pendingFailure != null) {
        ended = true;
        rethrow(pendingFailure);
      }
      final Batch b;
      try {
        b = queue.poll(LIVENESS_POLL_MS, TimeUnit.MILLISECONDS);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
        throw new IOException("interrupted while reading", e);
      }
      if (b == null) {
        // Checked in this order: a batch handed over before the thread ended is in the queue by now.
        if (!thread.isAlive() && queue.isEmpty()) {
          ended = true;
          rethrow(readerFailure != null ? readerFailure
              : new IllegalStateException("the JSONL reader thread ended without handing over the end of the input"));
        }
        continue;
      }
      if (b.last()) {
        // The transactions before the failure first, as a reader in this thread would have given them.
        if (b.failure() == null) {
          ended = true;
        } else {
          pendingFailure = b.failure();
        }
      }
      if (!b.txns().isEmpty()) {
        tags = b.tags();
        return b.txns();
      }
    }
    return List.of();
  }

  /** The tag its {@link Stage} gave the {@code i}th transaction of the batch {@link #next} returned last. */
  public long tag(final int i) {
    return tags[i];
  }

  /**
   * Stops the reader thread: it ends at its next line or hand-over. Does not wait for it, since it
   * may be blocked reading a pipe or a terminal that has nothing more to say (an interrupt does not
   * end a blocking read); it is a daemon thread, and the caller closes the input when it is done.
   */
  @Override
  public void close() {
    closed = true;
    ended = true;
    thread.interrupt();
    queue.clear();
  }

  /** Whether the reader thread has ended (tests). */
  boolean readerEnded() {
    return !thread.isAlive();
  }

  /** A JSONL input as a {@link Source}: blank lines skipped, each transaction's line its own. */
  static Source jsonl(final Reader in, final InputLimits limits) {
    return out -> {
      final JsonlHistoryReader reader = new JsonlHistoryReader(limits);
      final LineSource lines = new LineSource(in, limits);
      while (lines.advance()) {
        final Transaction t = reader.parseLine(lines.chars(), lines.from(), lines.to(), lines.lineNo());
        if (t != null && !out.accept(t)) {
          return;
        }
      }
    };
  }

  private void readAll(final Source source) {
    final Outgoing out = new Outgoing();
    Throwable failure = null;
    try {
      out.start();
      DebugTimings.mark("reader: first line");
      source.readAll(t -> {
        stage.read(t, out);
        return !out.stopped && !closed;
      });
      if (out.stopped) {
        return;
      }
      if (!closed) {
        stage.end(out);
      }
      DebugTimings.mark("reader: end of input");
    } catch (final Throwable e) { // every failure is the caller's to report, Errors included
      readerFailure = e; // first, allocating nothing: the hand-over below may run out of memory again
      failure = e;
    }
    if (!out.stopped) {
      hand(new Batch(out.batch, out.batchTags, failure, true));
    }
  }

  /** The batch being filled on the reader thread, handed over when full. */
  private final class Outgoing implements ReadingSplit.Sink {
    List<Transaction> batch = List.of();
    long[] batchTags = NO_TAGS;
    /** The caller closed this: nothing more is handed over. */
    boolean stopped;

    void start() {
      batch = new ArrayList<>(BATCH_TXNS);
      batchTags = new long[BATCH_TXNS];
    }

    @Override
    public void give(final Transaction t, final long tag) {
      if (stopped) {
        return;
      }
      batchTags[batch.size()] = tag;
      batch.add(t);
      if (batch.size() == BATCH_TXNS) {
        if (!hand(new Batch(batch, batchTags, null, false))) {
          stopped = true;
          return;
        }
        start();
      }
    }
  }

  /** Puts a batch in the queue; false when the caller closed this. */
  private boolean hand(final Batch b) {
    try {
      while (!closed) {
        if (handover.offer(queue, b, 100)) {
          return true;
        }
      }
    } catch (final InterruptedException e) {
      // close() interrupts: the caller is gone.
    }
    return false;
  }

  private static void rethrow(final Throwable t) throws IOException, InvalidHistoryException {
    if (t instanceof InvalidHistoryException e) {
      throw e;
    }
    if (t instanceof IOException e) {
      throw e;
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException("the JSONL reader thread failed", t);
  }
}
