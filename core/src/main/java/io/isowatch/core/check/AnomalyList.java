package io.isowatch.core.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The anomalies found, in canonical order, of which at most {@code cap} are listed. Counts per
 * name stay exact. The selection lists the first anomaly of every name found before filling up in
 * order, so a flood of one kind (thousands of lost updates under READ COMMITTED) never hides
 * another. Anomalies are built lazily: explanations are written only for the listed ones.
 */
public final class AnomalyList {
  private record Candidate(String name, Supplier<Anomaly> build) {}

  private final int cap;
  private final List<Candidate> candidates = new ArrayList<>();
  private final Map<String, Long> counts = new LinkedHashMap<>();

  public AnomalyList(final int cap) {
    this.cap = cap;
  }

  public void add(final String name, final Supplier<Anomaly> build) {
    candidates.add(new Candidate(name, build));
    counts.merge(name, 1L, Long::sum);
  }

  public Map<String, Long> counts() {
    return counts;
  }

  public boolean truncated() {
    return candidates.size() > cap;
  }

  /** The listed anomalies, built now, in the order added. */
  public List<Anomaly> select() {
    final boolean[] chosen = new boolean[candidates.size()];
    int taken = 0;
    final Map<String, Boolean> named = new LinkedHashMap<>();
    for (int i = 0; i < candidates.size() && taken < cap; i++) {
      if (named.putIfAbsent(candidates.get(i).name(), Boolean.TRUE) == null) {
        chosen[i] = true;
        taken++;
      }
    }
    for (int i = 0; i < candidates.size() && taken < cap; i++) {
      if (!chosen[i]) {
        chosen[i] = true;
        taken++;
      }
    }
    final List<Anomaly> out = new ArrayList<>(taken);
    for (int i = 0; i < candidates.size(); i++) {
      if (chosen[i]) {
        out.add(candidates.get(i).build().get());
      }
    }
    return out;
  }
}
