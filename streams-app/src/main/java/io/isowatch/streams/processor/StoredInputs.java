package io.isowatch.streams.processor;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@code tenant-transactions} store: each tenant's engine inputs (arrivals and flushes) under
 * consecutive indexes, replayed to rebuild its engine, and deleted once a checkpoint covers them.
 */
final class StoredInputs {
  private final KeyValueStore<TenantKey, byte[]> store;
  private final CheckerMetrics metrics;
  private final EventCodec codec = new EventCodec();

  StoredInputs(final KeyValueStore<TenantKey, byte[]> store, final CheckerMetrics metrics) {
    this.store = store;
    this.metrics = metrics;
  }

  /**
   * Stores an arrival as the tenant's next input: its own Avro {@code body} when decode-transactions
   * passed it on (no encoding again), else the event encoded.
   */
  void arrival(final TenantSlot slot, final long timestampMs, final TransactionEvent event, final byte[] body) {
    store.put(TenantKey.ofIndex(slot.tenant(), slot.progress().inputs()), body != null
        ? EngineInput.arrival(timestampMs * 1_000L, body)
        : EngineInput.encode(new EngineInput.Arrival(timestampMs * 1_000L, event), codec));
  }

  /** Stores a flush as the tenant's next input, so that a rebuild replays it. */
  void flush(final TenantSlot slot, final long streamTimeMs) {
    store.put(TenantKey.ofIndex(slot.tenant(), slot.progress().inputs()),
        EngineInput.encode(new EngineInput.Flush(streamTimeMs * 1_000L), codec));
  }

  /**
   * Feeds the engine the tenant's inputs from index {@code from} on; returns how many. Outputs are
   * dropped on purpose: they were published when the inputs first came.
   */
  long replay(final String tenant, final long from, final TenantEngine engine) {
    long replayed = 0;
    try (KeyValueIterator<TenantKey, byte[]> it =
        store.range(TenantKey.ofIndex(tenant, from), TenantKey.ofIndex(tenant, Long.MAX_VALUE))) {
      while (it.hasNext()) {
        final EngineInput input = EngineInput.decode(it.next().value, codec);
        if (input instanceof EngineInput.Arrival a) {
          engine.accept(TransactionEvents.toCore(a.event()), a.streamTimeMicros());
        } else {
          engine.flush();
        }
        replayed++;
      }
    }
    return replayed;
  }

  /**
   * Deletes up to {@code most} of the tenant's stored inputs that its checkpoint covers, lowest
   * first. A rebuild never reads them (it starts at the checkpoint's first input), so until they go
   * they only take room.
   */
  void deleteCovered(final TenantSlot slot, final long most) {
    final long from = slot.deleteFrom();
    final long n = Math.min(most, slot.firstInput() - from);
    if (n <= 0) {
      return;
    }
    final List<KeyValue<TenantKey, byte[]>> deletes = new ArrayList<>((int) n);
    for (long i = from; i < from + n; i++) {
      // A null value deletes: unlike delete(), it does not read the old value first.
      deletes.add(KeyValue.pair(TenantKey.ofIndex(slot.tenant(), i), null));
    }
    store.putAll(deletes);
    slot.deleteFrom(from + n);
    metrics.inputsDeleted(slot.tenant(), n);
  }
}
