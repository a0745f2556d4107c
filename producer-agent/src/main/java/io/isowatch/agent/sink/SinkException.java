package io.isowatch.agent.sink;

/** A sink could not take or store a transaction; the run must stop rather than lose it. */
public final class SinkException extends Exception {
  private static final long serialVersionUID = 1L;

  public SinkException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
