package io.isowatch.cli;

/**
 * The exit codes of {@code isowatch}, part of its public contract.
 *
 * <ul>
 *   <li>{@link #OK} 0: every requested level is SATISFIED (check), or the command succeeded; with
 *       {@code --promise}: every promised level checked is SATISFIED, whatever the other levels.
 *   <li>{@link #NOT_SATISFIED} 1: some requested level is VIOLATED or UNKNOWN; with {@code
 *       --promise}: some promised level is (a violated level outside the promise is allowed).
 *   <li>{@link #INVALID} 2: invalid input or usage: unreadable or invalid history, bad options,
 *       unwritable output. Nothing is written to stdout; one line per problem goes to stderr.
 *   <li>{@link #INTERNAL} 3: IsoWatch could not finish: any {@link Error} (out of memory, stack
 *       overflow, …) or unexpected exception, in any command and any thread, with one line on
 *       stderr saying what (see {@link Fatal}); a {@code --grace} the heap cannot hold; the local
 *       broker or registry of {@code replay --file} or {@code demo} could not start (a {@code
 *       LocalServiceException}: one line, no stack trace); or it could not be built or started.
 *       Never 0, 1 or 2, which a script would read as a verdict.
 * </ul>
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int NOT_SATISFIED = 1;
  public static final int INVALID = 2;
  public static final int INTERNAL = 3;

  private ExitCodes() {}
}
