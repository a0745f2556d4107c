package io.isowatch.core.format;

/**
 * The input is unreadable or breaks its format's contract. Carries the 1-based line, if known.
 * The message is one line of bounded length whatever the input held (control characters are
 * escaped, a long message is shortened), so that it can be shown as one line on a terminal.
 */
public final class InvalidHistoryException extends Exception {
  private static final long serialVersionUID = 1L;
  /** The longest message kept; quoted input beyond it is cut (the line number still locates it). */
  static final int MAX_MESSAGE_CHARS = 600;
  private final int line;

  public InvalidHistoryException(final int line, final String message) {
    super(oneLine(line > 0 ? "line " + line + ": " + message : message));
    this.line = line;
  }

  public InvalidHistoryException(final int line, final String message, final Throwable cause) {
    super(oneLine(line > 0 ? "line " + line + ": " + message : message), cause);
    this.line = line;
  }

  /** The 1-based line (or record index) of the problem, or 0 when unknown. */
  public int line() {
    return line;
  }

  /** {@code text} on one line: control characters as {@code \n} or {@code \\uXXXX}, cut after {@link #MAX_MESSAGE_CHARS}. */
  static String oneLine(final String text) {
    final String s = String.valueOf(text);
    final StringBuilder sb = new StringBuilder(Math.min(s.length(), MAX_MESSAGE_CHARS + 16));
    for (int i = 0; i < s.length(); i++) {
      if (sb.length() >= MAX_MESSAGE_CHARS) {
        if (Character.isHighSurrogate(sb.charAt(sb.length() - 1))) {
          sb.setLength(sb.length() - 1);
        }
        return sb.append("… (cut)").toString();
      }
      final char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c)
          && !(Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
          && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
