package io.isowatch.agent.target;

/**
 * A target refused or failed an operation. The {@link Failure} says what the client may conclude
 * about the transaction; {@code code} is a short, stable reason for counting (an SQLState, a
 * vendor code, {@code injected}).
 */
public final class TargetException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What a failure lets the client conclude. */
  public enum Failure {
    /**
     * The target guarantees the transaction did not and will not commit: serialization failure,
     * deadlock, lock timeout (then rolled back by the client).
     */
    ABORTED,
    /** The connection is gone: nothing can be concluded, and the session must reconnect. */
    CONNECTION,
    /** Any other error. Before commit the client rolls back; during commit the outcome is unknown. */
    ERROR
  }

  private final Failure failure;
  private final String code;

  public TargetException(final Failure failure, final String code, final String message, final Throwable cause) {
    super(message, cause);
    this.failure = failure;
    this.code = code;
  }

  public TargetException(final Failure failure, final String code, final String message) {
    this(failure, code, message, null);
  }

  public Failure failure() {
    return failure;
  }

  public String code() {
    return code;
  }
}
