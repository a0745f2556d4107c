package io.isowatch.cli;

/**
 * A failure the user can act on (missing file, invalid history, unwritable output): reported as
 * one line per problem on stderr (the message may hold several, separated by {@code \n}), without a
 * stack trace, and mapped to {@link ExitCodes#INVALID}.
 */
final class CliFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliFailure(final String message) {
    super(message);
  }
}
