package io.isowatch.streams.engine;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.ListAppendOnlineChecker;
import io.isowatch.core.online.OnlineEvent;
import java.util.List;

/**
 * The {@link TenantEngine} of a list-append tenant: the core's {@link ListAppendOnlineChecker}
 * (docs/list-append.md, "Online"). It keeps the tenant's whole history, so it has no horizon and
 * makes no checkpoints: a rebuild replays the tenant's stored inputs, which gives the same state.
 */
public final class ListAppendTenantEngine implements TenantEngine {
  private final ListAppendOnlineChecker checker;

  public ListAppendTenantEngine(final CheckOptions options) {
    this.checker = new ListAppendOnlineChecker(options);
  }

  @Override
  public List<OnlineEvent> accept(final Transaction transaction) {
    return checker.accept(transaction);
  }

  @Override
  public List<OnlineEvent> flush() {
    return checker.flush();
  }

  @Override
  public CheckResult result() {
    return checker.result();
  }

  /** What a flush would decide (the topology flushes an idle tenant only when this is not 0). */
  @Override
  public long buffered() {
    return checker.awaitingFlush();
  }

  @Override
  public long pendingReads() {
    return checker.pending();
  }

  @Override
  public long retainedTransactions() {
    return checker.retained();
  }
}
