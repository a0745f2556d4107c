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
            return null;
          }
          lineNo++;
          return longLine.toString();
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
          return new String(buf, start, pos - 1 - start);
        }
        return longLine.append(buf, start, pos - 1 - start).toString();
      }
      longLine.append(buf, start, pos - start);
    }
  }
}
