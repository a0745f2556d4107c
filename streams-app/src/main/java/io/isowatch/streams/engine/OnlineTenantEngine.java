package io.isowatch.streams.engine;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineEvent;
import io.isowatch.core.online.Horizon;
import io.isowatch.core.online.OnlineOptions;
import java.util.List;
import java.util.Optional;

/** The production {@link TenantEngine}: the core's incremental {@link OnlineChecker}, one per tenant. */
public final class OnlineTenantEngine implements TenantEngine {
  private final OnlineChecker checker;

  private OnlineTenantEngine(final OnlineChecker checker) {
    this.checker = checker;
  }

  /**
   * @param graceMicros the bounded lateness: the watermark is the latest end time seen minus this
   */
  public OnlineTenantEngine(final CheckOptions options, final long graceMicros) {
    this(options, graceMicros, Horizon.NONE);
  }

  /** An engine that retains only {@code horizon} of the history (docs/segmentation.md). */
  public OnlineTenantEngine(final CheckOptions options, final long graceMicros, final Horizon horizon) {
    this.checker = new OnlineChecker(options, OnlineOptions.streaming(graceMicros).withHorizon(horizon));
  }

  /** The factory every tenant's engine comes from. */
  public static TenantEngineFactory factory(final CheckOptions options, final long graceMicros) {
    return factory(options, graceMicros, Horizon.NONE);
  }

  /** The factory of engines with these options (grace, horizon, absence and future bounds). */
  public static TenantEngineFactory factory(final CheckOptions options, final OnlineOptions online) {
    return new TenantEngineFactory() {
      @Override
      public TenantEngine create(final String tenant) {
        return new OnlineTenantEngine(new OnlineChecker(options, online));
      }

      @Override
      public TenantEngine restore(final String tenant, final byte[] checkpoint) {
        return new OnlineTenantEngine(OnlineChecker.restore(options, online, checkpoint));
      }

      @Override
      public java.util.Set<io.isowatch.core.check.Level> levels() {
        return options.levels();
      }
    };
  }

  /** The factory of engines with a horizon. */
  public static TenantEngineFactory factory(final CheckOptions options, final long graceMicros,
      final Horizon horizon) {
    return new TenantEngineFactory() {
      @Override
      public TenantEngine create(final String tenant) {
        return new OnlineTenantEngine(options, graceMicros, horizon);
      }

      @Override
      public TenantEngine restore(final String tenant, final byte[] checkpoint) {
        return new OnlineTenantEngine(OnlineChecker.restore(options,
            OnlineOptions.streaming(graceMicros).withHorizon(horizon), checkpoint));
      }
    };
  }

  @Override
  public Optional<byte[]> checkpoint() {
    return checker.checkpointable() ? Optional.of(checker.checkpoint()) : Optional.empty();
  }

  @Override
  public Optional<byte[]> checkpointNow() {
    return checker.cutForCheckpoint() ? Optional.of(checker.checkpoint()) : Optional.empty();
  }

  @Override
  public long prune() {
    final long before = checker.prunedTransactions();
    checker.prune();
    return checker.prunedTransactions() - before;
  }

  @Override
  public PruneTotals pruneTotals() {
    return new PruneTotals(checker.cuts(), checker.prunedTransactions(), checker.pruneSeconds());
  }

  @Override
  public double retiredFalsePositiveRatio() {
    return checker.retiredFalsePositiveRatio();
  }

  @Override
  public long retiredRuns() {
    return checker.retiredRuns();
  }

  @Override
  public long retiredRunBytes() {
    return checker.retiredRunBytes();
  }

  @Override
  public long retainedTransactions() {
    return checker.retainedTransactions();
  }

  @Override
  public List<OnlineEvent> accept(final Transaction transaction) {
    return checker.accept(transaction);
  }

  @Override
  public List<OnlineEvent> accept(final Transaction transaction, final long arrivalMicros) {
    return checker.acceptAt(transaction, arrivalMicros);
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
  public boolean searchDeferred() {
    return checker.searchDeferred();
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
