package io.isowatch.streams.engine;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineEvent;
import io.isowatch.core.online.OnlineOptions;
import java.util.List;

/** The production {@link TenantEngine}: the core's incremental {@link OnlineChecker}, one per tenant. */
public final class OnlineTenantEngine implements TenantEngine {
  private final OnlineChecker checker;

  /**
   * @param graceMicros the bounded lateness: the watermark is the latest end time seen minus this
   */
  public OnlineTenantEngine(final CheckOptions options, final long graceMicros) {
    this.checker = new OnlineChecker(options, OnlineOptions.streaming(graceMicros));
  }

  /** The factory every tenant's engine comes from. */
  public static TenantEngineFactory factory(final CheckOptions options, final long graceMicros) {
    return tenant -> new OnlineTenantEngine(options, graceMicros);
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

  @Override
  public long buffered() {
    return checker.buffered();
  }

  @Override
  public long pendingReads() {
    return checker.pendingReads();
  }
}
