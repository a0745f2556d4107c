package io.isowatch.agent.workload;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one transaction will try to do, drawn by a {@link SessionWorkload}.
 *
 * @param shape the shape's name ({@code SNAPSHOT} for a whole-key-space read)
 * @param ops the operations in program order
 */
public record TxnPlan(String shape, List<PlannedOp> ops) {
  public static final String SNAPSHOT = "SNAPSHOT";

  public TxnPlan {
    ops = List.copyOf(ops);
  }

  /** True when the plan only reads. */
  public boolean readOnly() {
    return ops.stream().allMatch(op -> op instanceof PlannedOp.Read || op instanceof PlannedOp.ReadAll
        || op instanceof PlannedOp.ReadList);
  }

  /** Keys read, in first-read order (CAS and list reads count as reads). */
  public List<String> readKeys() {
    final Set<String> keys = new LinkedHashSet<>();
    for (final PlannedOp op : ops) {
      if (op instanceof PlannedOp.Read r) {
        keys.add(r.key());
      } else if (op instanceof PlannedOp.Cas c) {
        keys.add(c.key());
      } else if (op instanceof PlannedOp.ReadAll a) {
        keys.addAll(a.keys());
      } else if (op instanceof PlannedOp.ReadList l) {
        keys.add(l.key());
      }
    }
    return List.copyOf(keys);
  }

  /** Keys written (CAS and append count as writes). */
  public Set<String> writeKeys() {
    final Set<String> keys = new LinkedHashSet<>();
    for (final PlannedOp op : ops) {
      if (op instanceof PlannedOp.Write w) {
        keys.add(w.key());
      } else if (op instanceof PlannedOp.Cas c) {
        keys.add(c.key());
      } else if (op instanceof PlannedOp.Append a) {
        keys.add(a.key());
      }
    }
    return keys;
  }
}
