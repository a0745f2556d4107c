package io.isowatch.core.online;

/**
 * How much of a history the engine retains (docs/segmentation.md): after a cut it keeps the last
 * {@code transactions} processed transactions and those whose π time is within {@code micros} of
 * the latest processed one; when both are set a transaction is kept only if both keep it, so that
 * {@code transactions} bounds memory whatever the rate. The engine cuts by itself when the retained
 * state reaches twice the horizon, and when asked ({@link OnlineChecker#prune()}).
 *
 * @param transactions transactions to retain, or {@link #UNLIMITED}
 * @param micros π time to retain, µs, or {@link #UNLIMITED}
 * @param onSnapshots cut only right before a snapshot transaction (a committed read-only
 *     transaction reading every key known so far), as PolySI Section 6 proposes
 * @param filterBits size of each of the two filters of retired values, bits (a power of two)
 */
public record Horizon(long transactions, long micros, boolean onSnapshots, int filterBits) {
  public static final long UNLIMITED = Long.MAX_VALUE;
  /** 2^23 bits (1 MiB) per filter: under 1% false positives up to about 10^6 retired versions. */
  public static final int DEFAULT_FILTER_BITS = 1 << 23;
  /** No segmentation: everything is retained. */
  public static final Horizon NONE = new Horizon(UNLIMITED, UNLIMITED, false, DEFAULT_FILTER_BITS);

  public Horizon {
    if (transactions < 1 || micros < 1) {
      throw new IllegalArgumentException("a horizon must retain at least one transaction and 1 µs");
    }
    if (filterBits < 64 || Integer.bitCount(filterBits) != 1) {
      throw new IllegalArgumentException("filterBits must be a power of two >= 64");
    }
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
    return new Horizon(n, micros, onSnapshots, filterBits);
  }

  public Horizon withMicros(final long m) {
    return new Horizon(transactions, m, onSnapshots, filterBits);
  }

  public Horizon withSnapshots(final boolean on) {
    return new Horizon(transactions, micros, on, filterBits);
  }

  /** Whether anything is ever pruned. */
  public boolean enabled() {
    return transactions != UNLIMITED || micros != UNLIMITED;
  }
}
