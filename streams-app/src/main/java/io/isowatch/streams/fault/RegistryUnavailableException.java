package io.isowatch.streams.fault;

/**
 * The schema registry kept failing transiently (see {@link RegistryErrors}) for longer than a
 * decoder may block the stream thread. Thrown instead of dead-lettering: the stream thread is
 * replaced and its tasks resume from their last commit, so the record is retried, not lost.
 */
public final class RegistryUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RegistryUnavailableException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
