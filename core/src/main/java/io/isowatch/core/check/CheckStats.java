package io.isowatch.core.check;

import java.util.Map;

/**
 * Counts about one check.
 *
 * @param transactions transactions in the input
 * @param committed committed transactions checked (including promoted indeterminate ones)
 * @param aborted aborted transactions
 * @param unknownPromoted indeterminate transactions counted as committed because one was read
 * @param unknownIgnored indeterminate transactions ignored
 * @param sessions distinct sessions
 * @param keys distinct keys
 * @param operations operations in the input
 * @param longRmwTransactions read-modify-write transactions with more than 4 ops (outside the
 *     paper's MT definition, still checked exactly)
 * @param largeReadOnlyTransactions read-only transactions with more than 2 reads, e.g. snapshot
 *     reads (outside the MT definition, still checked exactly)
 * @param edges dependency edges built (SO, WR, WW, RW; RT is encoded, not counted)
 * @param anomaliesByName exact count of anomalies found per display name, before the list cap
 * @param anomaliesTruncated true when more anomalies were found than listed
 * @param seconds wall-clock seconds the check took (excluding parsing)
 * @param retired the filters of retired versions of a segmented check that pruned something, or
 *     null (docs/segmentation.md, "Retired versions")
 */
public record CheckStats(
    long transactions,
    long committed,
    long aborted,
    long unknownPromoted,
    long unknownIgnored,
    long sessions,
    long keys,
    long operations,
    long longRmwTransactions,
    long largeReadOnlyTransactions,
    long edges,
    Map<String, Long> anomaliesByName,
    boolean anomaliesTruncated,
    double seconds,
    Retired retired) {
  public CheckStats {
    anomaliesByName = Map.copyOf(anomaliesByName);
  }

  /** The same stats with the check's wall-clock seconds replaced. */
  public CheckStats withSeconds(final double newSeconds) {
    return new CheckStats(transactions, committed, aborted, unknownPromoted, unknownIgnored, sessions, keys, operations,
        longRmwTransactions, largeReadOnlyTransactions, edges, anomaliesByName, anomaliesTruncated, newSeconds, retired);
  }

  /** The same stats with the anomaly counts and the truncation flag replaced. */
  public CheckStats withAnomalies(final Map<String, Long> byName, final boolean truncated) {
    return new CheckStats(transactions, committed, aborted, unknownPromoted, unknownIgnored, sessions, keys, operations,
        longRmwTransactions, largeReadOnlyTransactions, edges, byName, truncated, seconds, retired);
  }

  /** Stats of a check that pruned nothing. */
  public CheckStats(final long transactions, final long committed, final long aborted, final long unknownPromoted,
      final long unknownIgnored, final long sessions, final long keys, final long operations,
      final long longRmwTransactions, final long largeReadOnlyTransactions, final long edges,
      final Map<String, Long> anomaliesByName, final boolean anomaliesTruncated, final double seconds) {
    this(transactions, committed, aborted, unknownPromoted, unknownIgnored, sessions, keys, operations,
        longRmwTransactions, largeReadOnlyTransactions, edges, anomaliesByName, anomaliesTruncated, seconds, null);
  }

  /**
   * The filters of retired versions of a segmented check.
   *
   * @param versions retired versions (with repeats): those the run-sets took and those added to
   *     the filters
   * @param filterBytes bytes the filters hold
   * @param falsePositiveRatio the probability, at most, that a read of a value never written was
   *     taken for a stale read beyond the horizon at the end of the check
   * @param falsePositiveBound the bound that ratio stays under while the filters are under their cap
   * @param runs the exact run-sets, or null for none
   */
  public record Retired(long versions, long filterBytes, double falsePositiveRatio, double falsePositiveBound,
      Runs runs) {
    /** Without run-sets (as before format 4 of the checkpoints). */
    public Retired(final long versions, final long filterBytes, final double falsePositiveRatio,
        final double falsePositiveBound) {
      this(versions, filterBytes, falsePositiveRatio, falsePositiveBound, null);
    }
  }

  /**
   * The exact run-sets of retired versions of a segmented check (docs/segmentation.md, "Retired
   * versions"): what they answer is never a false positive; only the versions that fit no run
   * under their cap went to the filters.
   *
   * @param runs runs held, over both run-sets and all keys
   * @param bytes bytes they take (16 per run)
   * @param versions retired versions they took (with repeats); the rest went to the filters
   * @param maxRuns the cap of each of the two run-sets, runs
   */
  public record Runs(long runs, long bytes, long versions, long maxRuns) {}
}
