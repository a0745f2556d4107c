package io.isowatch.agent.target.faulty;

import java.util.List;
import java.util.Map;

/**
 * What the faulty target injected.
 *
 * @param counts faults injected per kind (every kind present, 0 when none)
 * @param txnIds ids of the transactions that got each fault (the reader that saw the fault; at
 *     most {@link InjectionLog#MAX_IDS} per kind)
 * @param refusedCommits writers refused at commit to create aborted values ({@code abortedread})
 */
public record InjectionReport(Map<FaultKind, Long> counts, Map<FaultKind, List<String>> txnIds, long refusedCommits) {
  public InjectionReport {
    counts = Map.copyOf(counts);
    txnIds = Map.copyOf(txnIds);
  }

  public long count(final FaultKind kind) {
    return counts.getOrDefault(kind, 0L);
  }

  public long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
