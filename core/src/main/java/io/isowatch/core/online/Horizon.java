package io.isowatch.core.online;

/**
 * How much of a history the engine retains (docs/segmentation.md): after a cut it keeps the last
 * {@code transactions} processed transactions and those whose π time is within {@code micros} of
 * the latest processed one; when both are set a transaction is kept only if both keep it, so that
 * {@code transactions} bounds memory whatever the rate. The engine cuts by itself when the retained
 * state reaches {@code cutFactor} times the horizon (twice by default), and when asked ({@link
 * OnlineChecker#prune()}).
 *
 * <p>A cut replays the retained horizon, and the next self-cut comes {@code (cutFactor - 1)}
 * horizons later: self-cuts cost about {@code 1 / (cutFactor - 1)} extra processing of every
 * transaction, for a retained state of up to {@code cutFactor} horizons. What is checked does not
 * depend on it: at least a horizon is retained after every cut.
 *
 * @param transactions transactions to retain, or {@link #UNLIMITED}
 * @param micros π time to retain, µs, or {@link #UNLIMITED}
 * @param onSnapshots cut only right before a snapshot transaction (a committed read-only
 *     transaction reading every key known so far), as PolySI Section 6 proposes
 * @param filterBits size of the first stage of each of the two filters of retired values, bits (a
 *     power of two); later stages double as versions retire
 * @param cutFactor the engine cuts by itself when it retains this many horizons, in [{@link
 *     #MIN_CUT_FACTOR}, {@link #MAX_CUT_FACTOR}]
 * @param maxFilterBits the cap of each filter of retired values, bits ({@link #MAX_FILTER_BITS} by
 *     default); past it the false-positive probability grows beyond its bound and is reported
 * @param maxRunBytes the cap of each of the two exact run-sets of retired values, bytes ({@link
 *     #DEFAULT_MAX_RUN_BYTES} by default, {@link RetiredRuns#BYTES_PER_RUN} per run; 0 keeps no runs and
 *     every retired version goes to the filters, as before format 4); past it, versions that fit no
 *     run go to the filters (docs/segmentation.md, "Retired versions")
 */
public record Horizon(long transactions, long micros, boolean onSnapshots, int filterBits, double cutFactor,
    long maxFilterBits, long maxRunBytes) {
  public static final long UNLIMITED = Long.MAX_VALUE;
  /**
   * 2^23 bits (1 MiB) for the first stage of each filter of retired versions: about 440,000
   * versions; later stages double (docs/segmentation.md, "Retired versions").
   */
  public static final int DEFAULT_FILTER_BITS = 1 << 23;
  /**
   * The cap of each filter of retired versions: 2^32 bits (512 MiB), enough for about 2 x 10^8
   * retired versions under the false-positive bound; beyond it the error grows and is reported.
   */
  public static final long MAX_FILTER_BITS = 1L << 32;
  /**
   * The cap of each run-set of retired versions: 64 MiB, 4 x 2^20 runs (about a run per key and
   * writing session for IsoWatch's own workloads, one per value for arbitrary values).
   */
  public static final long DEFAULT_MAX_RUN_BYTES = 64L << 20;
  /** Self-cuts at twice the horizon: at most one extra processing of each transaction. */
  public static final double DEFAULT_CUT_FACTOR = 2.0;
  /** Below this, self-cuts would come so often that their replays dominate (10 per transaction). */
  public static final double MIN_CUT_FACTOR = 1.1;
  public static final double MAX_CUT_FACTOR = 64.0;
  /** No segmentation: everything is retained. */
  public static final Horizon NONE = new Horizon(UNLIMITED, UNLIMITED, false, DEFAULT_FILTER_BITS);

  public Horizon {
    if (transactions < 1 || micros < 1) {
      throw new IllegalArgumentException("a horizon must retain at least one transaction and 1 µs");
    }
    if (filterBits < 64 || Integer.bitCount(filterBits) != 1) {
      throw new IllegalArgumentException("filterBits must be a power of two >= 64");
    }
    if (maxFilterBits < filterBits) {
      throw new IllegalArgumentException("maxFilterBits must be at least filterBits");
    }
    if (maxRunBytes < 0) {
      throw new IllegalArgumentException("maxRunBytes must be >= 0, got " + maxRunBytes);
    }
    if (!isCutFactor(cutFactor)) {
      throw new IllegalArgumentException("cutFactor must be in [" + MIN_CUT_FACTOR + ", " + MAX_CUT_FACTOR
          + "], got " + cutFactor);
    }
  }

  /** A horizon with the default cap of the run-sets of retired values. */
  public Horizon(final long transactions, final long micros, final boolean onSnapshots, final int filterBits,
      final double cutFactor, final long maxFilterBits) {
    this(transactions, micros, onSnapshots, filterBits, cutFactor, maxFilterBits, DEFAULT_MAX_RUN_BYTES);
  }

  /** A horizon with the default cap of the filters of retired values. */
  public Horizon(final long transactions, final long micros, final boolean onSnapshots, final int filterBits,
      final double cutFactor) {
    this(transactions, micros, onSnapshots, filterBits, cutFactor, MAX_FILTER_BITS);
  }

  /** Whether {@code f} may be a {@link #cutFactor()}: in [{@link #MIN_CUT_FACTOR}, {@link #MAX_CUT_FACTOR}]. */
  public static boolean isCutFactor(final double f) {
    return f >= MIN_CUT_FACTOR && f <= MAX_CUT_FACTOR;
  }

  /** A horizon whose engine cuts by itself at twice it. */
  public Horizon(final long transactions, final long micros, final boolean onSnapshots, final int filterBits) {
    this(transactions, micros, onSnapshots, filterBits, DEFAULT_CUT_FACTOR);
  }

  /** Retains the last {@code n} processed transactions. */
  public static Horizon ofTransactions(final long n) {
    return new Horizon(n, UNLIMITED, false, DEFAULT_FILTER_BITS);
  }

  /** Retains the transactions within {@code micros} of π time of the latest processed one. */
  public static Horizon ofMicros(final long micros) {
    return new Horizon(UNLIMITED, micros, false, DEFAULT_FILTER_BITS);
  }

  public Horizon withTransactions(final long n) {
    return new Horizon(n, micros, onSnapshots, filterBits, cutFactor, maxFilterBits, maxRunBytes);
  }

  public Horizon withMicros(final long m) {
    return new Horizon(transactions, m, onSnapshots, filterBits, cutFactor, maxFilterBits, maxRunBytes);
  }

  public Horizon withSnapshots(final boolean on) {
    return new Horizon(transactions, micros, on, filterBits, cutFactor, maxFilterBits, maxRunBytes);
  }

  public Horizon withCutFactor(final double factor) {
    return new Horizon(transactions, micros, onSnapshots, filterBits, factor, maxFilterBits, maxRunBytes);
  }

  /** The same horizon with these filters of retired values: first stage and cap, bits. */
  public Horizon withFilters(final int firstBits, final long maxBits) {
    return new Horizon(transactions, micros, onSnapshots, firstBits, cutFactor, maxBits, maxRunBytes);
  }

  /** The same horizon with this cap of each run-set of retired values, bytes (0: filters only). */
  public Horizon withMaxRunBytes(final long bytes) {
    return new Horizon(transactions, micros, onSnapshots, filterBits, cutFactor, maxFilterBits, bytes);
  }

  /** The cap of each run-set of retired values, in runs. */
  long maxRuns() {
    return maxRunBytes / RetiredRuns.BYTES_PER_RUN;
  }

  /** Processed transactions at which the engine cuts by itself, or {@link #UNLIMITED}. */
  long selfCutTransactions() {
    return scaled(transactions);
  }

  /** π span of the processed transactions at which the engine cuts by itself, µs, or {@link #UNLIMITED}. */
  long selfCutMicros() {
    return scaled(micros);
  }

  private long scaled(final long bound) {
    if (bound == UNLIMITED) {
      return UNLIMITED;
    }
    // At least one more than the bound, so that a cut always has something to prune.
    final double at = Math.ceil(bound * cutFactor);
    return at >= (double) (UNLIMITED / 2) ? UNLIMITED / 2 : Math.max(bound + 1, (long) at);
  }

  /** Whether anything is ever pruned. */
  public boolean enabled() {
    return transactions != UNLIMITED || micros != UNLIMITED;
  }
}
