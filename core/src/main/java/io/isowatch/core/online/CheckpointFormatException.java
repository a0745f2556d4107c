package io.isowatch.core.online;

/**
 * Bytes given to {@link OnlineChecker#restore} that are not a checkpoint this release can read: not
 * a checkpoint at all, of an unsupported format version, truncated, corrupt (checksum, or a value
 * out of range), or followed by trailing bytes. The message says which.
 */
public final class CheckpointFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public CheckpointFormatException(final String message) {
    super(message);
  }

  public CheckpointFormatException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
