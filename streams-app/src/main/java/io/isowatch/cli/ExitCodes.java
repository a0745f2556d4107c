package io.isowatch.cli;

/**
 * The exit codes of {@code isowatch}, part of its public contract.
 *
 * <ul>
 *   <li>{@link #OK} 0: every requested level is SATISFIED (check), or the command succeeded.
 *   <li>{@link #NOT_SATISFIED} 1: some requested level is VIOLATED or UNKNOWN.
 *   <li>{@link #INVALID} 2: invalid input or usage: unreadable or invalid history, bad options,
 *       unwritable output. Nothing is written to stdout; one line per problem goes to stderr.
 *   <li>{@link #INTERNAL} 3: a bug in IsoWatch, or it could not be built or started.
 * </ul>
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int NOT_SATISFIED = 1;
  public static final int INVALID = 2;
  public static final int INTERNAL = 3;

  private ExitCodes() {}
}
