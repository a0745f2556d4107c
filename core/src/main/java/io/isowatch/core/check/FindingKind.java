package io.isowatch.core.check;

/**
 * Typed input findings: things about the history itself (not the database) that the checker
 * reports instead of guessing or crashing.
 */
public enum FindingKind {
  /** Two writes of the same value to the same key: WR is no longer determined for that value. */
  NON_UNIQUE_WRITE(Severity.UNDECIDABLE),
  /** A write with no earlier read of its key in the same transaction: WW is no longer determined. */
  BLIND_WRITE(Severity.UNDECIDABLE),
  /** SSER needs start and end times; some transactions lack them. */
  MISSING_TIMESTAMPS(Severity.UNDECIDABLE),
  /** A transaction writes the initial value; the contract forbids it. */
  INITIAL_VALUE_WRITE(Severity.INVALID),
  /** Two transactions share an id. */
  DUPLICATE_TXN_ID(Severity.INVALID),
  /**
   * With {@code --levels MIXED}: a transaction declares a level that cannot be mixed (unknown,
   * ambiguous such as REPEATABLE READ, or not defined on a commit order), or declares none and no
   * default level was given (docs/levels.md, "Mixed levels").
   */
  INVALID_LEVEL(Severity.INVALID),
  /** Two transactions of one session share a seq. */
  DUPLICATE_SEQ(Severity.INVALID),
  /** A session's seq numbers skip values: input is incomplete, not anomalous. */
  SEQ_GAP(Severity.WARNING),
  /** A session's transactions overlap in time: timestamps disagree with session order. */
  SESSION_TIME_OVERLAP(Severity.WARNING),
  /** A transaction ends before it starts. */
  END_BEFORE_START(Severity.WARNING),
  /**
   * Online only: a transaction reached the checker after a transaction that follows it in the
   * canonical processing order had been processed (it came later than the grace period allows),
   * or a value's writer came after a read of that value had been reported as a ThinAirRead. It is
   * checked all the same, but the result may then differ from {@code isowatch check} on the same
   * history.
   */
  LATE_TRANSACTION(Severity.WARNING),
  /**
   * Online only: a transaction's times lie further ahead of its arrival (the record's timestamp)
   * than {@code check.future.ms} allows, so its client's clock is not trusted. It does not move
   * the watermark; it is ordered by its arrival, taken as its end, with its start unknown, so no
   * real-time order leads to it (docs/streaming.md, "No false positive from time").
   */
  FUTURE_EVENT_TIME(Severity.WARNING),
  /**
   * Segmented engine only (docs/segmentation.md): a read returned a value no retained transaction
   * wrote, which the exact runs of retired versions show was written (and overwritten) by pruned
   * transactions, stated as fact; or, for a version past the runs' cap, which a filter of retired
   * versions says was probably written so, with the false-positive probability the finding gives. Its levels are those it leaves
   * undecided; when real time proves it, SSER is violated and a {@code StaleReadBeyondHorizon}
   * anomaly says so.
   */
  STALE_READ_BEYOND_HORIZON(Severity.UNDECIDABLE),
  /**
   * Segmented engine only (docs/segmentation.md, "Retired versions"): the filters of retired
   * versions (which hold the versions that fit none of the exact runs under their cap) reached
   * their memory cap and their false-positive probability rose above its bound,
   * so a thin-air read may be reported as a stale read beyond the horizon more often than the bound
   * says. Verdicts are unaffected (such a read leaves levels UNKNOWN, never SATISFIED).
   */
  RETIRED_FILTER_SATURATED(Severity.WARNING),
  /**
   * Segmented engine only: transactions were pruned beyond the retained horizon; cycles through
   * them are no longer searched, so SATISFIED means "no violation within the horizon".
   */
  HORIZON_PRUNED(Severity.INFO),
  /** Indeterminate transactions that no committed transaction read, so they were ignored. */
  UNKNOWN_IGNORED(Severity.INFO);

  /** How a finding affects verdicts. */
  public enum Severity {
    /** The input breaks the contract: the CLI exits 2. */
    INVALID,
    /** Some levels cannot be decided unless a violation is certain anyway: they become UNKNOWN. */
    UNDECIDABLE,
    /** Worth a look; verdicts are unaffected. */
    WARNING,
    /** Informational. */
    INFO
  }

  private final Severity severity;

  FindingKind(final Severity severity) {
    this.severity = severity;
  }

  public Severity severity() {
    return severity;
  }
}
