package io.isowatch.core.history;

/**
 * How a transaction ended, as seen by its client.
 *
 * <ul>
 *   <li>{@link #COMMITTED}: the commit was acknowledged.
 *   <li>{@link #ABORTED}: the database refused it (serialization failure, deadlock, explicit
 *       rollback). Its writes must never be observed.
 *   <li>{@link #UNKNOWN}: indeterminate, e.g. the connection died during commit. It counts as
 *       committed if a committed transaction read one of its writes, and is ignored otherwise.
 * </ul>
 */
public enum TxnStatus {
  COMMITTED("committed"),
  ABORTED("aborted"),
  UNKNOWN("unknown");

  private final String wire;

  TxnStatus(final String wire) {
    this.wire = wire;
  }

  /** The spelling used in the native JSONL format. */
  public String wire() {
    return wire;
  }

  public static TxnStatus fromWire(final String s) {
    return switch (s) {
      case "committed", "ok", "COMMITTED" -> COMMITTED;
      case "aborted", "fail", "ABORTED" -> ABORTED;
      case "unknown", "info", "UNKNOWN" -> UNKNOWN;
      default -> throw new IllegalArgumentException(
          "unknown status '" + s + "' (expected committed, aborted or unknown)");
    };
  }
}
