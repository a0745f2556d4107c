package io.isowatch.core.gen;

import java.util.List;

/**
 * One injected instance of an anomaly pattern, so tests and benchmarks can check that the checker
 * reports it.
 *
 * @param kind the pattern
 * @param txnIds the ids of the pattern's transactions, in the order they were emitted
 * @param keys the (fresh) keys the pattern uses
 * @param firstIndex the 0-based position of its first transaction in the history
 */
public record InjectedAnomaly(InjectedKind kind, List<String> txnIds, List<String> keys, long firstIndex) {
  public InjectedAnomaly {
    txnIds = List.copyOf(txnIds);
    keys = List.copyOf(keys);
  }
}
