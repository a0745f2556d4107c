package io.isowatch.agent.target.faulty;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.workload.KeySpace;

/**
 * A deliberately faulty database for testing the checker end to end: an in-memory store that is
 * strictly serializable unless its {@link FaultSpec} asks for faults, which it injects and logs
 * ({@link #injections()}). Spelled {@code faulty:<spec>} on the command line.
 */
public final class FaultyTarget implements Target {
  private final FaultSpec spec;
  private final InjectionLog log = new InjectionLog();
  private final FaultyStore store;

  public FaultyTarget(final FaultSpec spec, final long seed) {
    this.spec = spec;
    this.store = new FaultyStore(spec, seed, log);
  }

  public FaultSpec spec() {
    return spec;
  }

  @Override
  public String describe() {
    return "faulty in-memory store, faults " + spec.spec();
  }

  @Override
  public IsolationLevel isolation() {
    return IsolationLevel.SERIALIZABLE;
  }

  @Override
  public void prepare(final KeySpace keys) {
    store.reset(keys);
  }

  @Override
  public TargetSession open(final String session) {
    return new FaultySession(store, session);
  }

  /** What was injected so far. */
  public InjectionReport injections() {
    return log.report();
  }

  @Override
  public void close() {
    // Nothing outside the heap.
  }
}
