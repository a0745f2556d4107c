package io.isowatch.core.online;

/**
 * Options of the incremental engine (see docs/streaming-design.md).
 *
 * @param graceMicros how far behind the latest end time seen a transaction may still arrive and be
 *     processed in the canonical order π; buffered transactions are released once the watermark
 *     (latest end seen minus grace) passes their end, and a read whose value no transaction wrote
 *     becomes a ThinAirRead once π has passed its reader's end by more than grace.
 *     {@link #UNBOUNDED} releases only on a flush.
 * @param publishEvents whether {@link OnlineChecker#accept} and {@link OnlineChecker#flush} return
 *     the events they publish; off, anomalies are explained only when a result lists them
 * @param horizon what is retained of the history (docs/segmentation.md); {@link Horizon#NONE}
 *     keeps everything
 * @param absenceMicros the declared lateness bound of proofs by absence (docs/streaming.md, "No
 *     false positive from time"): a read whose value no transaction wrote becomes a ThinAirRead
 *     only once π has passed its reader's end by more than this. Never below {@code graceMicros}
 *     (a smaller value is raised to it): the grace alone already makes that certain for
 *     transactions that arrive within it
 * @param futureMicros how far an event's time may lie ahead of its arrival ({@link
 *     OnlineChecker#acceptAt}) before it is a
 *     FUTURE_EVENT_TIME finding, checked by its arrival and kept out of the watermark and of real
 *     time; and how far ahead of every other session's latest time (the rule of the whole-history
 *     check, judged on arrival by the Sequencer, with or without an arrival time) before it is one,
 *     checked as ending at the latest trusted time; {@link #UNBOUNDED} never flags one
 * @param futureByArrival whether {@link OnlineChecker#acceptAt} also judges a time by its arrival;
 *     off where the arrival is not the history's clock ({@code replay --file}, whose records are
 *     stamped by the replay): the other sessions' latest times stay the reference
 */
public record OnlineOptions(long graceMicros, boolean publishEvents, Horizon horizon, long absenceMicros,
    long futureMicros, boolean futureByArrival) {
  /** Grace that never releases anything before a flush. */
  public static final long UNBOUNDED = Long.MAX_VALUE;
  /**
   * How far ahead an event's time may lie by default (1 hour) before its clock is not trusted: of
   * its arrival in the topology ({@code check.future.ms}), of every other session's times in a
   * whole-history check ({@link WholeHistoryCheck}).
   */
  public static final long DEFAULT_FUTURE_MICROS = 3_600_000_000L;

  public OnlineOptions {
    if (graceMicros < 0) {
      throw new IllegalArgumentException("graceMicros must be >= 0");
    }
    if (futureMicros < 0) {
      throw new IllegalArgumentException("futureMicros must be >= 0");
    }
    java.util.Objects.requireNonNull(horizon, "horizon");
    absenceMicros = Math.max(absenceMicros, graceMicros);
  }

  /** Options judging times by their arrival too (when a future bound is set). */
  public OnlineOptions(final long graceMicros, final boolean publishEvents, final Horizon horizon,
      final long absenceMicros, final long futureMicros) {
    this(graceMicros, publishEvents, horizon, absenceMicros, futureMicros, true);
  }

  /** Options with the absence bound equal to the grace and no future-time check. */
  public OnlineOptions(final long graceMicros, final boolean publishEvents, final Horizon horizon) {
    this(graceMicros, publishEvents, horizon, graceMicros, UNBOUNDED);
  }

  /** Options that retain the whole history. */
  public OnlineOptions(final long graceMicros, final boolean publishEvents) {
    this(graceMicros, publishEvents, Horizon.NONE);
  }

  /** The same options with this horizon. */
  public OnlineOptions withHorizon(final Horizon h) {
    return new OnlineOptions(graceMicros, publishEvents, h, absenceMicros, futureMicros, futureByArrival);
  }

  /** The same options with this lateness bound for proofs by absence (raised to the grace if below). */
  public OnlineOptions withAbsence(final long micros) {
    return new OnlineOptions(graceMicros, publishEvents, horizon, micros, futureMicros, futureByArrival);
  }

  /** The same options flagging event times more than {@code micros} ahead of their arrival. */
  public OnlineOptions withFutureBound(final long micros) {
    return new OnlineOptions(graceMicros, publishEvents, horizon, absenceMicros, micros, futureByArrival);
  }

  /**
   * The same options judging times by their arrival ({@link OnlineChecker#acceptAt}) or not; the
   * other sessions' latest times are the reference either way.
   */
  public OnlineOptions withFutureByArrival(final boolean byArrival) {
    return new OnlineOptions(graceMicros, publishEvents, horizon, absenceMicros, futureMicros, byArrival);
  }

  /** A stream with this grace period, publishing events. */
  public static OnlineOptions streaming(final long graceMicros) {
    return new OnlineOptions(graceMicros, true);
  }

  /** A whole history replayed in one go and flushed: nothing is released early, no events. */
  public static OnlineOptions batch() {
    return new OnlineOptions(UNBOUNDED, false);
  }

  boolean graceBounded() {
    return graceMicros != UNBOUNDED;
  }

  boolean futureBounded() {
    return futureMicros != UNBOUNDED;
  }
}
