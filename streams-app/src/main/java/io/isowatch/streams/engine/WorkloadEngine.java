package io.isowatch.streams.engine;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.listappend.ListAppendCheck;
import io.isowatch.core.online.OnlineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A tenant's engine that follows its workload (docs/list-append.md, "Online"): register
 * transactions go to the register engine; the first list-append transaction (an append or a
 * list-valued read) turns the tenant into a list-append tenant, checked by a {@link
 * ListAppendTenantEngine}, provided the register engine saw nothing a list-append history cannot
 * hold (a write, or a read of a value). The transactions it saw until then (reads of absent keys
 * only, the same in both workloads) are given to the list-append engine first. A list-append
 * transaction arriving after register writes or reads of values is refused ({@link #refuses}): the
 * topology counts it as a malformed transaction, as it counts any input it cannot check.
 */
public final class WorkloadEngine implements TenantEngine {
  private final CheckOptions options;
  private TenantEngine register;
  private ListAppendTenantEngine lists;
  /** The register transactions seen while the workload was still open (reads of absent keys only). */
  private final List<Transaction> neutral = new ArrayList<>();
  private boolean registerWorkload;

  private WorkloadEngine(final CheckOptions options, final TenantEngine register, final boolean registerWorkload) {
    this.options = options;
    this.register = register;
    this.registerWorkload = registerWorkload;
  }

  /** The factory of engines that follow each tenant's workload, the register ones from {@code registers}. */
  public static TenantEngineFactory factory(final CheckOptions options, final TenantEngineFactory registers) {
    return new TenantEngineFactory() {
      @Override
      public TenantEngine create(final String tenant) {
        return new WorkloadEngine(options, registers.create(tenant), false);
      }

      @Override
      public TenantEngine restore(final String tenant, final byte[] checkpoint) {
        // Only register engines make checkpoints, and only once they have checked something.
        return new WorkloadEngine(options, registers.restore(tenant, checkpoint), true);
      }

      @Override
      public java.util.Set<io.isowatch.core.check.Level> levels() {
        return registers.levels();
      }
    };
  }

  /**
   * Why this engine cannot check the transaction, or null when it can: a list-append transaction
   * after register writes or reads of values (a tenant has one workload).
   */
  public String refuses(final Transaction t) {
    if (lists == null && registerWorkload && ListAppendCheck.isListAppend(t)) {
      return "transaction " + t.id() + " has list-append operations, but the tenant's earlier transactions wrote or "
          + "read register values: a tenant is checked as one workload, registers or list-append "
          + "(docs/list-append.md, \"Online\")";
    }
    return null;
  }

  @Override
  public List<OnlineEvent> accept(final Transaction t) {
    return accept(t, Long.MIN_VALUE);
  }

  @Override
  public List<OnlineEvent> accept(final Transaction t, final long arrivalMicros) {
    if (lists != null) {
      return lists.accept(t);
    }
    if (ListAppendCheck.isListAppend(t)) {
      final String refused = refuses(t);
      if (refused != null) {
        throw new IllegalArgumentException(refused);
      }
      lists = new ListAppendTenantEngine(options);
      register = null;
      final List<OnlineEvent> events = new ArrayList<>();
      for (final Transaction n : neutral) {
        events.addAll(lists.accept(n));
      }
      neutral.clear();
      events.addAll(lists.accept(t));
      return events;
    }
    if (!registerWorkload) {
      if (neutralToWorkload(t)) {
        neutral.add(t);
      } else {
        registerWorkload = true;
        neutral.clear();
      }
    }
    return arrivalMicros == Long.MIN_VALUE ? register.accept(t) : register.accept(t, arrivalMicros);
  }

  /** True for a transaction that means the same in both workloads: only reads of absent keys. */
  private static boolean neutralToWorkload(final Transaction t) {
    for (final Op op : t.ops()) {
      if (!op.isRead() || op.value() != null) {
        return false;
      }
    }
    return true;
  }

  private TenantEngine current() {
    return lists != null ? lists : register;
  }

  @Override
  public List<OnlineEvent> flush() {
    return current().flush();
  }

  @Override
  public CheckResult result() {
    return current().result();
  }

  @Override
  public boolean searchDeferred() {
    return current().searchDeferred();
  }

  @Override
  public long buffered() {
    return current().buffered();
  }

  @Override
  public long pendingReads() {
    return current().pendingReads();
  }

  @Override
  public long prune() {
    return current().prune();
  }

  @Override
  public PruneTotals pruneTotals() {
    return current().pruneTotals();
  }

  @Override
  public double retiredFalsePositiveRatio() {
    return current().retiredFalsePositiveRatio();
  }

  @Override
  public long retiredRuns() {
    return current().retiredRuns();
  }

  @Override
  public long retiredRunBytes() {
    return current().retiredRunBytes();
  }

  @Override
  public long retainedTransactions() {
    return current().retainedTransactions();
  }

  /** No checkpoint while the workload is open: the transactions kept for a switch are in no checkpoint. */
  private boolean settled() {
    return lists != null || registerWorkload;
  }

  @Override
  public Optional<byte[]> checkpoint() {
    return settled() ? current().checkpoint() : Optional.empty();
  }

  @Override
  public Optional<byte[]> checkpointNow() {
    return settled() ? current().checkpointNow() : Optional.empty();
  }
}
