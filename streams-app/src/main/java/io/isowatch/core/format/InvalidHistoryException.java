package io.isowatch.core.format;

/** The input is unreadable or breaks its format's contract. Carries the 1-based line, if known. */
public final class InvalidHistoryException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int line;

  public InvalidHistoryException(final int line, final String message) {
    super(line > 0 ? "line " + line + ": " + message : message);
    this.line = line;
  }

  public InvalidHistoryException(final int line, final String message, final Throwable cause) {
    super(line > 0 ? "line " + line + ": " + message : message, cause);
    this.line = line;
  }

  /** The 1-based line (or record index) of the problem, or 0 when unknown. */
  public int line() {
    return line;
  }
}
