package io.isowatch.agent.sink;

import io.isowatch.core.format.JsonlHistoryWriter;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes the native JSONL history ({@link JsonlHistoryWriter}), one transaction per line, from
 * one writer thread fed by a bounded queue. Sessions block while the queue is full (counted as
 * producer waits); nothing is ever dropped. The file is flushed whenever the queue runs empty,
 * so a reader sees every transaction the writer has caught up with. If writing fails, every
 * later {@link #accept} and {@link #close} throws.
 */
public final class JsonlFileSink implements TransactionSink {
  public static final int DEFAULT_CAPACITY = 8192;
  private static final Transaction END = new Transaction("<end>", "<end>", Transaction.NO_SEQ,
      TxnStatus.COMMITTED, Transaction.NO_TIME, Transaction.NO_TIME, List.of(), null, null, 0);

  private final String name;
  private final BlockingQueue<Transaction> queue;
  private final JsonlHistoryWriter writer;
  private final Thread thread;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong waits = new AtomicLong();
  private final AtomicLong waitMicros = new AtomicLong();
  private volatile Throwable failure;
  private volatile boolean closed;

  /** A sink writing to {@code out}, which it closes at the end. */
  public JsonlFileSink(final String name, final Writer out, final int capacity) {
    this.name = name;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.writer = new JsonlHistoryWriter(out);
    this.thread = new Thread(this::drain, "isowatch-jsonl-sink");
    thread.setDaemon(true);
    thread.start();
  }

  /** A sink writing to a new (or truncated) file. */
  public static JsonlFileSink toFile(final Path file) throws IOException {
    final Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return new JsonlFileSink(file.toString(), Files.newBufferedWriter(file, StandardCharsets.UTF_8), DEFAULT_CAPACITY);
  }

  /** A sink writing to standard output (not closed at the end). */
  public static JsonlFileSink toStdout() {
    final Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)) {
      @Override
      public void close() throws IOException {
        flush();
      }
    };
    return new JsonlFileSink("stdout", out, DEFAULT_CAPACITY);
  }

  @Override
  public void accept(final Transaction txn) throws SinkException, InterruptedException {
    check();
    if (closed) {
      throw new SinkException(name + " is closed; transaction " + txn.id() + " was not written", null);
    }
    accepted.incrementAndGet();
    if (queue.offer(txn)) {
      return;
    }
    waits.incrementAndGet();
    final long t0 = System.nanoTime();
    // Wait in slices so that a writer that died while we wait is noticed.
    while (!queue.offer(txn, 100, TimeUnit.MILLISECONDS)) {
      check();
    }
    waitMicros.addAndGet((System.nanoTime() - t0) / 1000);
  }

  @Override
  public List<SinkStats> stats() {
    return List.of(new SinkStats(name, accepted.get(), written.get(), waits.get(), waitMicros.get()));
  }

  @Override
  public synchronized void close() throws SinkException {
    if (!closed) {
      closed = true;
      try {
        while (failure == null && thread.isAlive() && !queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
          // The writer is still catching up.
        }
        thread.join();
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SinkException("interrupted while closing " + name + "; it may be incomplete", e);
      }
    }
    check();
  }

  private void drain() {
    try {
      while (true) {
        final Transaction t = queue.take();
        if (t == END) {
          break;
        }
        writer.write(t);
        written.incrementAndGet();
        if (queue.isEmpty()) {
          writer.flush();
        }
      }
      writer.close();
    } catch (final IOException | RuntimeException e) {
      failure = e;
      try {
        writer.close();
      } catch (final IOException suppressed) {
        e.addSuppressed(suppressed);
      }
    } catch (final InterruptedException e) {
      failure = e;
    } catch (final Error e) {
      // Kept, not swallowed: the caller's next accept or close throws it. Without this an Error (no
      // memory left) ended the writer silently and accept waited for room in the queue for ever.
      failure = e;
      throw e;
    }
  }

  private void check() throws SinkException {
    final Throwable f = failure;
    if (f != null) {
      throw new SinkException("writing " + name + " failed after " + written.get() + " transactions: " + f, f);
    }
    if (!closed && !thread.isAlive()) {
      throw new SinkException("the writer of " + name + " ended unexpectedly after " + written.get()
          + " transactions", null);
    }
  }
}
