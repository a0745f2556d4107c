package io.isowatch.core.format;

/**
 * The history holds something the target format cannot express at all (as opposed to what it can
 * drop and report in a {@link WriteReport}), e.g. a non-integer key for the text format. Thrown
 * before anything is written.
 */
public final class UnwritableHistoryException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnwritableHistoryException(final String message) {
    super(message);
  }
}
