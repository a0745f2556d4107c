package io.isowatch.localstack;

import java.io.IOException;

/**
 * A local service ({@link LocalRegistry}, {@link LocalKafka}) could not start for a reason of the
 * machine, not of IsoWatch's code: its ports were taken, its runner jar could not be built, it
 * exited or was not ready in time. The message is one line for a person and names the log that
 * says more; commands report it as such, without a stack trace (exit 3, "could not start", never a
 * verdict: README, "Exit codes").
 */
public final class LocalServiceException extends IOException {
  private static final long serialVersionUID = 1L;

  public LocalServiceException(final String message) {
    super(message);
  }

  public LocalServiceException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
