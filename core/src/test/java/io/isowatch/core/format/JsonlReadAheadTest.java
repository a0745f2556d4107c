package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JsonlReadAhead}: the sequential reader's transactions and failures, from another thread. */
class JsonlReadAheadTest {
  private static final int LINES = JsonlReadAhead.BATCH_TXNS * 3 + 17;

  @Test
  void shouldGiveTheSequentialReadersTransactionsInOrderWhenTheInputSpansManyBatches() throws Exception {
    // Given: blank lines and a line for the Jackson parser among them
    final String text = lines(LINES, -1) + "\n  \n{\"session\":\"z\",\"txn\":\"esc\\u0041\",\"status\":\"aborted\",\"ops\":[]}\n";

    // When
    final List<Transaction> ahead = drain(new JsonlReadAhead(new StringReader(text), InputLimits.BUILT_IN));

    // Then
    assertEquals(new JsonlHistoryReader(InputLimits.BUILT_IN).read(new StringReader(text)).transactions(), ahead);
    assertEquals(LINES + 1, ahead.size());
  }

  @Test
  void shouldGiveTheTransactionsBeforeTheBadLineThenItsErrorWhenALineIsInvalid() throws Exception {
    // Given: line 5000 is broken
    final String text = lines(LINES, 5000);
    final InvalidHistoryException sequential = assertThrows(InvalidHistoryException.class,
        () -> new JsonlHistoryReader(InputLimits.BUILT_IN).read(new StringReader(text)));
    final List<Transaction> got = new ArrayList<>();

    // When
    final InvalidHistoryException e;
    try (JsonlReadAhead ahead = new JsonlReadAhead(new StringReader(text), InputLimits.BUILT_IN)) {
      e = assertThrows(InvalidHistoryException.class, () -> {
        for (List<Transaction> b = ahead.next(); !b.isEmpty(); b = ahead.next()) {
          got.addAll(b);
        }
      });
    }

    // Then
    assertEquals(sequential.getMessage(), e.getMessage());
    assertEquals(4999, got.size());
    assertEquals(4999, got.get(got.size() - 1).line());
  }

  @Test
  void shouldRethrowTheErrorInTheCallersThreadWhenTheReaderThreadMeetsOne() {
    // Given: a Reader that fails with an Error after some lines
    final OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    final Reader failing = new Reader() {
      private final Reader text = new StringReader(lines(3000, -1) + "\n");

      @Override
      public int read(final char[] buf, final int off, final int len) throws IOException {
        final int n = text.read(buf, off, len);
        if (n < 0) {
          throw oom;
        }
        return n;
      }

      @Override
      public void close() {}
    };

    // When
    final Thread caller = Thread.currentThread();
    final List<Transaction> got = new ArrayList<>();
    final OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> {
      try (JsonlReadAhead ahead = new JsonlReadAhead(failing, InputLimits.BUILT_IN)) {
        for (List<Transaction> b = ahead.next(); !b.isEmpty(); b = ahead.next()) {
          got.addAll(b);
        }
      }
    });

    // Then: thrown here, after every transaction read before it
    assertSame(oom, thrown);
    assertEquals(caller, Thread.currentThread());
    assertEquals(3000, got.size());
  }

  @Test
  void shouldThrowWhatEndedTheReaderThreadWhenItDiesWithoutHandingOverItsEnd() {
    // Given: a reader that runs out of memory, and runs out again while handing that over (seen in CI:
    // the caller waited for ever on the queue and `check` hung instead of exiting 3)
    final OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    final Reader failing = new Reader() {
      @Override
      public int read(final char[] buf, final int off, final int len) {
        throw oom;
      }

      @Override
      public void close() {}
    };
    final JsonlReadAhead.Handover dyingHandover = (queue, b, timeoutMs) -> {
      throw new OutOfMemoryError("again, while handing over");
    };

    // When
    final OutOfMemoryError thrown = assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertThrows(
        OutOfMemoryError.class, () -> {
          try (JsonlReadAhead ahead = new JsonlReadAhead(failing, InputLimits.BUILT_IN, dyingHandover)) {
            ahead.next();
          }
        }));

    // Then: the first failure, the one that ended the reading
    assertSame(oom, thrown);
  }

  @Test
  void shouldSayTheReaderVanishedWhenItsThreadEndsWithoutAFailureOrAnEnd() {
    // Given: a hand-over that loses every batch without a word
    final JsonlReadAhead.Handover losing = (queue, b, timeoutMs) -> true;

    // When
    final IllegalStateException thrown = assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertThrows(
        IllegalStateException.class, () -> {
          try (JsonlReadAhead ahead = new JsonlReadAhead(new StringReader(lines(10, -1)), InputLimits.BUILT_IN,
              losing)) {
            ahead.next();
          }
        }));

    // Then
    assertEquals("the JSONL reader thread ended without handing over the end of the input", thrown.getMessage());
  }

  @Test
  void shouldStopTheReaderThreadWhenTheCallerClosesEarly() {
    // Given: an endless input, so the reader thread fills the queue and waits
    final Reader endless = new Reader() {
      private final String line = lines(1, -1) + "\n";
      private final StringBuilder pending = new StringBuilder();
      private long n;

      @Override
      public int read(final char[] buf, final int off, final int len) {
        if (pending.length() == 0) {
          pending.append(line.replace("t0", "t" + n++));
        }
        final int k = Math.min(len, pending.length());
        pending.getChars(0, k, buf, off);
        pending.delete(0, k);
        return k;
      }

      @Override
      public void close() {}
    };

    // When / Then: the reader thread ends soon after close(), which itself returns at once
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      final JsonlReadAhead ahead = new JsonlReadAhead(endless, InputLimits.BUILT_IN);
      assertTrue(ahead.next().size() > 0);
      ahead.close();
      assertEquals(List.of(), ahead.next());
      while (!ahead.readerEnded()) {
        Thread.onSpinWait();
      }
    });
  }

  @Test
  void shouldReturnFromCloseWhenTheReaderThreadIsBlockedReadingAnInputWithNothingMore() {
    // Given: an input that gives some lines, then blocks for ever (a terminal, a silent pipe)
    final java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
    final Reader blocking = new Reader() {
      private final Reader text = new StringReader(lines(10, -1) + "\n");

      @Override
      public int read(final char[] buf, final int off, final int len) throws IOException {
        final int n = text.read(buf, off, len);
        if (n >= 0) {
          return n;
        }
        blocked.countDown();
        while (true) {
          try {
            never.await();
            return -1;
          } catch (final InterruptedException e) {
            // as a blocking read of a pipe does: the interrupt does not end it
          }
        }
      }

      @Override
      public void close() {}
    };

    // When / Then: close() does not wait for the blocked read
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      final JsonlReadAhead ahead = new JsonlReadAhead(blocking, InputLimits.BUILT_IN);
      blocked.await();
      ahead.close();
      assertEquals(List.of(), ahead.next());
    });
    never.countDown();
  }

  @Test
  void shouldReportADuplicateIdAsTheSequentialReaderDoesWhenHistoryIoReadsAcrossBatches() throws Exception {
    // Given: line 6000 repeats the id of line 3
    final String text = lines(LINES, -1).replace("\"txn\":\"t5999\"", "\"txn\":\"t2\"");
    final String expected = assertThrows(InvalidHistoryException.class,
        () -> new JsonlHistoryReader(InputLimits.BUILT_IN).read(new StringReader(text))).getMessage();

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> HistoryIO.read(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), HistoryFormat.JSONL));

    // Then
    assertEquals("line 6000: duplicate transaction id 't2' (first used at line 3)", expected);
    assertEquals(expected, e.getMessage());
  }

  @Test
  void shouldReadTheSameHistoryThroughHistoryIoWhenTheInputIsValid() throws Exception {
    // Given
    final String text = lines(LINES, -1);

    // When
    final History h = HistoryIO.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), HistoryFormat.JSONL);

    // Then
    assertEquals(new JsonlHistoryReader(InputLimits.BUILT_IN).read(new StringReader(text)), h);
  }

  private static List<Transaction> drain(final JsonlReadAhead ahead) throws Exception {
    final List<Transaction> all = new ArrayList<>();
    try (ahead) {
      for (List<Transaction> b = ahead.next(); !b.isEmpty(); b = ahead.next()) {
        all.addAll(b);
      }
    }
    return all;
  }

  /** {@code n} lines, transaction ids t0…; line {@code broken} (1-based) is not JSON, or none if -1. */
  private static String lines(final int n, final int broken) {
    final StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i + 1 == broken) {
        sb.append("{\"session\":\"s\",\"txn\":");
      } else {
        sb.append("{\"session\":\"s").append(i % 7).append("\",\"txn\":\"t").append(i)
            .append("\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"k").append(i % 13)
            .append("\",\"v\":").append(i).append("}]}");
      }
      if (i + 1 < n) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }
}
