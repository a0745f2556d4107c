package io.isowatch.core.format;

import java.io.IOException;
import java.io.Reader;

/**
 * The lines of a line-based history (JSONL, text) with a bound on their length, as {@link
 * java.io.BufferedReader#readLine} splits them ({@code \n}, {@code \r\n} or {@code \r} ends a
 * line) but without ever holding more than {@link InputLimits#maxLineChars} characters of one line:
 * a file without line breaks is refused at the limit instead of filling the heap. Not thread-safe.
 */
public final class LineSource {
  private static final int BUFFER_CHARS = 1 << 16;

  private final Reader in;
  private final int maxLineChars;
  private final char[] buf = new char[BUFFER_CHARS];
  private int pos;
  private int limit;
  private boolean skipLf;
  private int lineNo;
  private final StringBuilder longLine = new StringBuilder();
  private char[] spare = new char[0];
  private char[] lineChars = buf;
  private int lineFrom;
  private int lineTo;

  public LineSource(final Reader in, final InputLimits limits) {
    this.in = in;
    this.maxLineChars = limits.maxLineChars();
  }

  /** The 1-based number of the line {@link #next} returned last. */
  public int lineNo() {
    return lineNo;
  }

  /**
   * The next line without its terminator, or null at the end of input.
   *
   * @throws InvalidHistoryException when the line is longer than the limit
   */
  public String next() throws IOException, InvalidHistoryException {
    return advance() ? new String(lineChars, lineFrom, lineTo - lineFrom) : null;
  }

  /**
   * Moves to the next line without making a {@code String} of it: afterwards the line is {@link
   * #chars()} from {@link #from()} to {@link #to()}, valid until the next call. False at the end of
   * input. The same lines as {@link #next}.
   *
   * @throws InvalidHistoryException when the line is longer than the limit
   */
  public boolean advance() throws IOException, InvalidHistoryException {
    longLine.setLength(0);
    boolean any = false;
    while (true) {
      if (pos >= limit) {
        final int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
          if (n == 0) {
            continue;
          }
          if (!any) {
            return false;
          }
          lineNo++;
          return exposeLongLine();
        }
        pos = 0;
        limit = n;
      }
      if (skipLf) {
        skipLf = false;
        if (buf[pos] == '\n') {
          pos++;
          continue;
        }
      }
      any = true;
      final int start = pos;
      while (pos < limit && buf[pos] != '\n' && buf[pos] != '\r') {
        pos++;
      }
      if (longLine.length() + (pos - start) > maxLineChars) {
        throw InputLimits.exceeded(lineNo + 1, "line too long", InputLimits.MAX_LINE_CHARS, maxLineChars);
      }
      if (pos < limit) {
        final char eol = buf[pos++];
        skipLf = eol == '\r';
        lineNo++;
        if (longLine.length() == 0) {
          // The common case: the whole line lies in the buffer, which stays as it is until the next call.
          lineChars = buf;
          lineFrom = start;
          lineTo = pos - 1;
          return true;
        }
        longLine.append(buf, start, pos - 1 - start);
        return exposeLongLine();
      }
      longLine.append(buf, start, pos - start);
    }
  }

  /** The characters of the current line (shared: read only {@link #from()} to {@link #to()}). */
  public char[] chars() {
    return lineChars;
  }

  /** Where the current line starts in {@link #chars()}. */
  public int from() {
    return lineFrom;
  }

  /** Where the current line ends (exclusive) in {@link #chars()}. */
  public int to() {
    return lineTo;
  }

  private boolean exposeLongLine() {
    final int n = longLine.length();
    if (spare.length < n) {
      spare = new char[Math.max(n, spare.length * 2)];
    }
    longLine.getChars(0, n, spare, 0);
    lineChars = spare;
    lineFrom = 0;
    lineTo = n;
    return true;
  }
}
