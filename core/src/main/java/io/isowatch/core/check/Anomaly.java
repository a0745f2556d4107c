package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import java.util.List;
import java.util.Set;

/**
 * One proven violation.
 *
 * @param type its class: the Adya class of a cycle ({@code G0}, {@code G1c}, {@code G-single},
 *     {@code G2-item}, each with an optional {@code -process} or {@code -realtime} suffix), or for
 *     non-cycle anomalies {@code G1a}, {@code G1b}, {@code thin-air} or {@code internal}
 * @param name the MTC pattern name (Table I), e.g. {@code LostUpdate}, {@code WriteSkew}, or null
 *     when no named pattern matches
 * @param violates the levels this anomaly alone proves violated
 * @param transactions the transactions involved, in cycle order for cycles
 * @param cycle the counterexample cycle, closed (the last edge ends where the first starts); empty
 *     for non-cycle anomalies
 * @param explanation a text a person can check against the raw history
 * @param read the read a non-cycle anomaly is about; null for cycles (their edges say what they
 *     are about) and for anomalies restored from a checkpoint of an older release
 */
public record Anomaly(
    String type,
    String name,
    Set<Level> violates,
    List<Transaction> transactions,
    List<Edge> cycle,
    String explanation,
    AnomalyRead read) {
  /** An anomaly about no single read: a cycle. */
  public Anomaly(final String type, final String name, final Set<Level> violates, final List<Transaction> transactions,
      final List<Edge> cycle, final String explanation) {
    this(type, name, violates, transactions, cycle, explanation, null);
  }

  public Anomaly {
    violates = Level.strongestFirst(violates);
    transactions = List.copyOf(transactions);
    cycle = List.copyOf(cycle);
  }

  public List<String> txnIds() {
    return transactions.stream().map(Transaction::id).toList();
  }

  /** The pattern name when there is one, otherwise the type. */
  public String displayName() {
    return name != null ? name : type;
  }
}
