package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.history.History;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the readers' property tests share: random edits of a text, and the comparison of a format's
 * reader at the end of the input with its reader thread (read-ahead).
 */
final class ReadOutcomes {
  private ReadOutcomes() {}

  /** A format's reader of the whole text at the end (the reference the read-ahead is compared with). */
  @FunctionalInterface
  interface AtEnd {
    History read(String text) throws IOException, InvalidHistoryException;
  }

  /** {@code edits} random edits of {@code sb}: a piece inserted, up to four characters deleted, or one replaced by a piece. */
  static void edit(final StringBuilder sb, final SplittableRandom r, final int edits, final String[] pieces) {
    for (int e = edits; e > 0; e--) {
      final int at = r.nextInt(sb.length() + 1);
      switch (r.nextInt(3)) {
        case 0 -> sb.insert(at, pieces[r.nextInt(pieces.length)]);
        case 1 -> sb.delete(at, Math.min(sb.length(), at + 1 + r.nextInt(4)));
        default -> sb.replace(at, Math.min(sb.length(), at + 1), pieces[r.nextInt(pieces.length)]);
      }
    }
  }

  /**
   * Asserts that the reader thread ({@link HistoryIO#read} with a split) gives what the reader at the
   * end gives, the same history or the same error, and that the split was given the history's
   * transactions in its order; returns the history, or the error's message.
   */
  static Object assertSameOutcome(final String text, final HistoryFormat format, final AtEnd atEnd) throws IOException {
    Object whole;
    try {
      whole = atEnd.read(text);
    } catch (final InvalidHistoryException e) {
      whole = e.getMessage();
    }
    final List<Transaction> given = new ArrayList<>();
    Object ahead;
    try {
      ahead = HistoryIO.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), format,
          ReadingSplit.each(given::add));
    } catch (final InvalidHistoryException e) {
      ahead = e.getMessage();
    }
    final String shown = text.length() > 2_000 ? text.substring(0, 2_000) : text;
    assertEquals(whole, ahead, shown);
    if (ahead instanceof History h) {
      assertEquals(h.transactions(), given, shown);
    }
    return ahead;
  }
}
