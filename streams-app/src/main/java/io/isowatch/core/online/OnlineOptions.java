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
 */
public record OnlineOptions(long graceMicros, boolean publishEvents, Horizon horizon) {
  /** Grace that never releases anything before a flush. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  public OnlineOptions {
    if (graceMicros < 0) {
      throw new IllegalArgumentException("graceMicros must be >= 0");
    }
    java.util.Objects.requireNonNull(horizon, "horizon");
  }

  /** Options that retain the whole history. */
  public OnlineOptions(final long graceMicros, final boolean publishEvents) {
    this(graceMicros, publishEvents, Horizon.NONE);
  }

  /** The same options with this horizon. */
  public OnlineOptions withHorizon(final Horizon h) {
    return new OnlineOptions(graceMicros, publishEvents, h);
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
}
