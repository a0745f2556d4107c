package io.isowatch.agent.target.faulty;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Counts and remembers the faults injected; thread-safe. */
public final class InjectionLog {
  /** Transaction ids kept per kind. */
  public static final int MAX_IDS = 10_000;

  private final Map<FaultKind, Long> counts = new EnumMap<>(FaultKind.class);
  private final Map<FaultKind, List<String>> ids = new EnumMap<>(FaultKind.class);
  private long refusedCommits;

  synchronized void injected(final FaultKind kind, final String txnId) {
    counts.merge(kind, 1L, Long::sum);
    final List<String> list = ids.computeIfAbsent(kind, k -> new ArrayList<>());
    if (list.size() < MAX_IDS) {
      list.add(txnId);
    }
  }

  synchronized void refusedCommit() {
    refusedCommits++;
  }

  public synchronized InjectionReport report() {
    final Map<FaultKind, Long> c = new EnumMap<>(FaultKind.class);
    final Map<FaultKind, List<String>> i = new EnumMap<>(FaultKind.class);
    for (final FaultKind k : FaultKind.values()) {
      c.put(k, counts.getOrDefault(k, 0L));
      i.put(k, List.copyOf(ids.getOrDefault(k, List.of())));
    }
    return new InjectionReport(c, i, refusedCommits);
  }
}
