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
    double seconds) {
  public CheckStats {
    anomaliesByName = Map.copyOf(anomaliesByName);
  }
}
