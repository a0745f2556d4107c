package io.isowatch.core.format;

import java.io.IOException;
import java.io.Reader;

/**
 * The JSON-lines form of an Elle history, line by line through an {@link ElleJsonFastPath}, up to the
 * first line it does not take; {@link #rest()} is then the input as Jackson would see it from there.
 *
 * <p>The rest begins with one {@code \n} per line already taken (blank lines included), so that
 * Jackson numbers the lines as it would have numbered them reading the whole input (errors name the
 * same lines), then the line not taken, then the unread input. Nothing taken crosses into the rest:
 * each line taken is one whole object followed by its line break, and a line holding anything else
 * (a {@code \r} not before the {@code \n}, an object over several lines, a line longer than
 * {@link #MAX_LINE_CHARS}) is not taken. Not thread-safe.
 */
final class ElleJsonLines {
  /** Longer lines are left to Jackson (the buffer holds at least one whole line taken). */
  static final int MAX_LINE_CHARS = 1 << 14;
  private static final int BUFFER_CHARS = 1 << 16;

  private final Reader in;
  private final ElleJsonFastPath fast;
  private final char[] buf = new char[BUFFER_CHARS];
  private int pos;
  private int limit;
  private boolean eof;
  private int linesTaken;
  private int lastOpLine = 1;
  private boolean stopped;

  ElleJsonLines(final Reader in, final ElleJsonFastPath fast) {
    this.in = in;
    this.fast = fast;
  }

  /**
   * The op of the next line that holds one, blank lines skipped, numbered {@code ordinal}; null at the
   * end of the input or at a line the scanner does not take (then {@link #rest()} holds it).
   */
  JepsenOp next(final long ordinal) throws IOException {
    while (!stopped) {
      final int eol = lineEnd();
      if (eol < 0) {
        stopped = true; // too long for the buffer
        return null;
      }
      if (pos == limit) {
        stopped = true; // the end of the input
        return null;
      }
      final int to = eol > pos && eol < limit && buf[eol - 1] == '\r' ? eol - 1 : eol;
      final int line = linesTaken + 1;
      if (ElleJsonFastPath.isBlank(buf, pos, to)) {
        take(eol);
        continue;
      }
      final JepsenOp op = fast.parse(buf, pos, to, line, ordinal);
      if (op == null) {
        stopped = true;
        return null;
      }
      take(eol);
      lastOpLine = line;
      return op;
    }
    return null;
  }

  /** The line of the last op taken, 1 if none. */
  int lastOpLine() {
    return lastOpLine;
  }

  /** The input from the first line not taken on, after as many line breaks as lines were taken. */
  Reader rest() {
    return new Reader() {
      private int breaks = linesTaken;

      @Override
      public int read(final char[] cbuf, final int off, final int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        if (breaks > 0) {
          final int n = Math.min(len, breaks);
          java.util.Arrays.fill(cbuf, off, off + n, '\n');
          breaks -= n;
          return n;
        }
        if (pos < limit) {
          final int n = Math.min(len, limit - pos);
          System.arraycopy(buf, pos, cbuf, off, n);
          pos += n;
          return n;
        }
        return in.read(cbuf, off, len);
      }

      @Override
      public void close() {
        // The caller closes the input.
      }
    };
  }

  private void take(final int eol) {
    pos = eol < limit ? eol + 1 : eol;
    linesTaken++;
  }

  /**
   * Where the line at {@link #pos} ends: the index of its {@code \n}, or {@link #limit} when the input
   * ends first, the line whole in the buffer either way; -1 when it is longer than {@link #MAX_LINE_CHARS}.
   */
  private int lineEnd() throws IOException {
    int scanned = pos;
    while (true) {
      for (int i = scanned; i < limit; i++) {
        if (buf[i] == '\n') {
          return i - pos > MAX_LINE_CHARS ? -1 : i;
        }
      }
      if (limit - pos > MAX_LINE_CHARS) {
        return -1;
      }
      if (eof) {
        return limit;
      }
      scanned = limit - pos;
      System.arraycopy(buf, pos, buf, 0, limit - pos);
      limit -= pos;
      pos = 0;
      final int n = in.read(buf, limit, buf.length - limit);
      if (n < 0) {
        eof = true;
      } else {
        limit += n;
      }
    }
  }
}
