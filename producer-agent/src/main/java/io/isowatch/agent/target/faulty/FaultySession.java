package io.isowatch.agent.target.faulty;

import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.target.TxnContext;
import io.isowatch.agent.workload.TxnPlan;
import java.util.ArrayList;
import java.util.List;

/** A session of the {@link FaultyStore}; one transaction at a time. */
final class FaultySession implements TargetSession {
  private final FaultyStore store;
  private final FaultyStore.SessionState state;
  private FaultyStore.Txn txn;

  FaultySession(final FaultyStore store, final String name) {
    this.store = store;
    this.state = new FaultyStore.SessionState(name);
  }

  @Override
  public void begin(final TxnContext context, final TxnPlan plan) throws TargetException {
    if (txn != null) {
      throw new TargetException(Failure.ERROR, "state", "a transaction is already open in session " + state.name);
    }
    txn = store.begin(state, context, plan);
  }

  @Override
  public Long read(final String key) throws TargetException {
    return store.read(open(), key);
  }

  @Override
  public void write(final String key, final long value) throws TargetException {
    store.write(open(), key, value);
  }

  @Override
  public boolean compareAndSet(final String key, final long expected, final long value) throws TargetException {
    final FaultyStore.Txn t = open();
    final Long current = store.read(t, key);
    if (current == null || current != expected) {
      return false;
    }
    store.write(t, key, value);
    return true;
  }

  @Override
  public List<Long> readAll(final List<String> keys) throws TargetException {
    final List<Long> out = new ArrayList<>(keys.size());
    for (final String k : keys) {
      out.add(read(k));
    }
    return out;
  }

  @Override
  public void commit() throws TargetException {
    final FaultyStore.Txn t = open();
    txn = null;
    store.commit(t);
  }

  @Override
  public void rollback() {
    if (txn != null) {
      final FaultyStore.Txn t = txn;
      txn = null;
      store.rollback(t);
    }
  }

  @Override
  public void recorded(final TxnContext context, final boolean committed, final long endMicros) {
    if (committed) {
      store.recorded(context.txnId(), endMicros);
    }
  }

  @Override
  public boolean broken() {
    return false;
  }

  @Override
  public void close() {
    rollback();
  }

  private FaultyStore.Txn open() throws TargetException {
    if (txn == null) {
      throw new TargetException(Failure.ERROR, "state", "no open transaction in session " + state.name);
    }
    return txn;
  }
}
