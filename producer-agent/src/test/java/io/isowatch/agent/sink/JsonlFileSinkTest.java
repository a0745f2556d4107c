package io.isowatch.agent.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlFileSinkTest {
  private static Transaction txn(final String session, final long seq, final TxnStatus status) {
    return new Transaction(session + "-" + seq, session, seq, status, 1_000 + seq, 1_010 + seq,
        List.of(Op.read("k1", 0L), Op.write("k1", (1L << 40) | (seq + 1))), null, "serializable", 0);
  }

  @Test
  void shouldWriteTransactionsThatReadBackUnchanged(@TempDir final Path dir) throws Exception {
    // Given
    final Path file = dir.resolve("sub/history.jsonl");
    final List<Transaction> txns = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      txns.add(txn("s" + (i % 3), i / 3, i % 7 == 0 ? TxnStatus.ABORTED : i % 11 == 0 ? TxnStatus.UNKNOWN : TxnStatus.COMMITTED));
    }

    // When
    try (JsonlFileSink sink = JsonlFileSink.toFile(file)) {
      for (final Transaction t : txns) {
        sink.accept(t);
      }
    }
    final History back = HistoryIO.read(file, HistoryFormat.JSONL);

    // Then
    assertEquals(txns.size(), back.size());
    for (int i = 0; i < txns.size(); i++) {
      final Transaction a = txns.get(i);
      final Transaction b = back.transactions().get(i);
      assertEquals(List.of(a.id(), a.session(), a.seq(), a.status(), a.start(), a.end(), a.ops(), a.level()),
          List.of(b.id(), b.session(), b.seq(), b.status(), b.start(), b.end(), b.ops(), b.level()));
    }
  }

  /** A writer that blocks every write until released. */
  private static final class GatedWriter extends Writer {
    final CountDownLatch gate = new CountDownLatch(1);
    final StringWriter out = new StringWriter();

    @Override
    public void write(final char[] cbuf, final int off, final int len) throws IOException {
      try {
        gate.await();
      } catch (final InterruptedException e) {
        throw new IOException(e);
      }
      out.write(cbuf, off, len);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  @Test
  void shouldBlockProducersWhenTheQueueIsFullAndDropNothing() throws Exception {
    // Given: a queue of 4 and a writer that does not move
    final GatedWriter w = new GatedWriter();
    final JsonlFileSink sink = new JsonlFileSink("gated", w, 4);
    final CountDownLatch produced = new CountDownLatch(1);
    final Thread producer = new Thread(() -> {
      try {
        for (int i = 0; i < 20; i++) {
          sink.accept(txn("s0", i, TxnStatus.COMMITTED));
        }
        produced.countDown();
      } catch (final Exception e) {
        throw new IllegalStateException(e);
      }
    });

    // When
    producer.start();
    final boolean finishedWhileGated = produced.await(300, TimeUnit.MILLISECONDS);
    w.gate.countDown();
    producer.join(5_000);
    sink.close();

    // Then
    assertTrue(!finishedWhileGated, "the producer must block while the sink is full");
    final SinkStats stats = sink.stats().get(0);
    assertTrue(stats.producerWaits() > 0, "waits must be counted: " + stats);
    assertEquals(20, stats.accepted());
    assertEquals(20, stats.written());
    assertEquals(20, w.out.toString().lines().count());
  }

  @Test
  void shouldFailLoudlyWhenWritingFails() throws Exception {
    // Given
    final Writer broken = new Writer() {
      @Override
      public void write(final char[] cbuf, final int off, final int len) throws IOException {
        throw new IOException("disk full");
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    final JsonlFileSink sink = new JsonlFileSink("broken", broken, 4);

    // When
    sink.accept(txn("s0", 0, TxnStatus.COMMITTED));
    final SinkException e = assertThrows(SinkException.class, sink::close);

    // Then
    assertTrue(e.getMessage().contains("disk full"), e.getMessage());
    assertThrows(SinkException.class, () -> sink.accept(txn("s0", 1, TxnStatus.COMMITTED)));
  }

  @Test
  void shouldFailProducersInsteadOfBlockingThemWhenTheWriterDiesOfAnError() {
    // Given: a writer that runs out of memory, and a queue of 1 that it will never empty again
    final Writer dying = new Writer() {
      @Override
      public void write(final char[] cbuf, final int off, final int len) {
        throw new OutOfMemoryError("Java heap space");
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    final JsonlFileSink sink = new JsonlFileSink("dying", dying, 1);

    // When: producers go on until the sink says so (before the fix they waited for room for ever)
    final SinkException e = assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertThrows(SinkException.class,
        () -> {
          for (long seq = 0; ; seq++) {
            sink.accept(txn("s0", seq, TxnStatus.COMMITTED));
          }
        }));

    // Then: the Error is named, and closing says it again instead of waiting for the dead writer
    assertTrue(e.getMessage().contains("OutOfMemoryError"), e.getMessage());
    assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertThrows(SinkException.class, sink::close));
  }

  @Test
  void shouldHandEveryTransactionToEverySinkWhenTeed() throws Exception {
    // Given
    final CollectingSink a = new CollectingSink();
    final CollectingSink b = new CollectingSink();
    final TeeSink tee = new TeeSink(List.of(a, b));

    // When
    tee.accept(txn("s0", 0, TxnStatus.COMMITTED));
    tee.accept(txn("s0", 1, TxnStatus.ABORTED));
    tee.close();

    // Then
    assertEquals(2, a.history().size());
    assertEquals(a.history(), b.history());
    assertEquals(2, tee.stats().size());
  }
}
