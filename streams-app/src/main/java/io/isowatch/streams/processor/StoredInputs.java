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
   * passed it on (no encoding again), else the event encoded. It joins the tenant's open batch
   * ({@link InputBatch}), which is stored again whole.
   */
  void arrival(final TenantSlot slot, final long timestampMs, final TransactionEvent event, final byte[] body) {
    if (body != null) {
      final InputBatch batch = openBatch(slot, 9 + body.length);
      batch.addArrival(timestampMs * 1_000L, body);
      store.put(TenantKey.ofIndex(slot.tenant(), batch.first()), batch.bytes());
    } else {
      add(slot, EngineInput.encode(new EngineInput.Arrival(timestampMs * 1_000L, event), codec));
    }
  }

  /** Stores a flush as the tenant's next input, so that a rebuild replays it. */
  void flush(final TenantSlot slot, final long streamTimeMs) {
    add(slot, EngineInput.encode(new EngineInput.Flush(streamTimeMs * 1_000L), codec));
  }

  private void add(final TenantSlot slot, final byte[] input) {
    final InputBatch batch = openBatch(slot, input.length);
    batch.add(input);
    store.put(TenantKey.ofIndex(slot.tenant(), batch.first()), batch.bytes());
  }

  /** The tenant's open batch if the next input fits in it, else a new one that starts at that input. */
  private static InputBatch openBatch(final TenantSlot slot, final int bytes) {
    final InputBatch open = slot.batch();
    if (open != null && open.end() == slot.progress().inputs() && open.fits(bytes)) {
      return open;
    }
    final InputBatch batch = new InputBatch(slot.progress().inputs());
    slot.batch(batch);
    return batch;
  }

  /**
   * Feeds the engine the tenant's inputs from index {@code from} on; returns how many. Outputs are
   * dropped on purpose: they were published when the inputs first came. An entry holding input
   * {@code from} starts at most {@link InputBatch#MAX_INPUTS} - 1 inputs before it.
   *
   * <p>Each index is replayed once, from the last entry that holds it, as when one entry per input
   * was overwritten: entries overlap only where an input was stored but its progress was not (a
   * record that failed after its store write and quarantined its tenant, or a crash without
   * exactly-once), and the input stored again from that progress on is the one that counts.
   */
  long replay(final String tenant, final long from, final TenantEngine engine) {
    long replayed = 0;
    try (KeyValueIterator<TenantKey, byte[]> it = store.range(
        TenantKey.ofIndex(tenant, Math.max(0, from - (InputBatch.MAX_INPUTS - 1))),
        TenantKey.ofIndex(tenant, Long.MAX_VALUE))) {
      KeyValue<TenantKey, byte[]> held = null;
      while (it.hasNext()) {
        final KeyValue<TenantKey, byte[]> entry = it.next();
        if (held != null) {
          replayed += replayEntry(held, from, entry.key.index(), engine);
        }
        held = entry;
      }
      if (held != null) {
        replayed += replayEntry(held, from, Long.MAX_VALUE, engine);
      }
    }
    return replayed;
  }

  /** Replays the inputs of one entry whose index is at least {@code from} and below {@code until}. */
  private long replayEntry(final KeyValue<TenantKey, byte[]> entry, final long from, final long until,
      final TenantEngine engine) {
    final long[] replayed = {0};
    InputBatch.forEach(entry.key.index(), entry.value, (index, bytes, offset, length) -> {
      if (index < from || index >= until) {
        return;
      }
      final EngineInput input = EngineInput.decode(bytes, offset, length, codec);
      if (input instanceof EngineInput.Arrival a) {
        engine.accept(TransactionEvents.toCore(a.event()), a.streamTimeMicros());
      } else {
        engine.flush();
      }
      replayed[0]++;
    });
    return replayed[0];
  }

  /**
   * Deletes some of the tenant's stored inputs that its checkpoint covers, lowest first: {@code
   * most} per call, gathered until they make a batch's worth, so that one range read deletes
   * whole entries. A rebuild never reads them (it starts at the checkpoint's first input), so until
   * they go they only take room.
   */
  void deleteCovered(final TenantSlot slot, final long most) {
    if (slot.deleteFrom() >= slot.firstInput()) {
      slot.deleteCredit(0);
      return;
    }
    final long credit = slot.deleteCredit() + most;
    if (credit < InputBatch.MAX_INPUTS) {
      slot.deleteCredit(credit);
      return;
    }
    slot.deleteCredit(0);
    deleteCoveredNow(slot, credit);
  }

  /**
   * Deletes the stored entries whose inputs the tenant's checkpoint covers, lowest first, up to
   * those that start {@code most} inputs after the first not deleted. An entry is deleted whole
   * (every input of it covered: batches close at each checkpoint, {@link TenantCheckpointer}).
   */
  void deleteCoveredNow(final TenantSlot slot, final long most) {
    final long from = slot.deleteFrom();
    final long covered = slot.firstInput();
    if (most <= 0 || from >= covered) {
      return;
    }
    final List<KeyValue<TenantKey, byte[]>> deletes = new ArrayList<>();
    // The range ends where this call's deletes may end, not at the checkpoint: the cached store's
    // range copies the cache's keys within it into a new sorted set, and the covered entries not
    // yet deleted (up to a checkpoint interval's worth, thousands) were copied at every call, every
    // few inputs: 12.7% of the stream thread in the profile (docs/streaming-design.md).
    final long last = most >= covered - from ? covered - 1 : from + most - 1;
    long next = last + 1;
    try (KeyValueIterator<TenantKey, byte[]> it =
        store.range(TenantKey.ofIndex(slot.tenant(), from), TenantKey.ofIndex(slot.tenant(), last))) {
      while (it.hasNext()) {
        final KeyValue<TenantKey, byte[]> entry = it.next();
        final long start = entry.key.index();
        if (start >= from + most || start + InputBatch.count(entry.value) > covered) {
          next = start;
          break;
        }
        // A null value deletes: unlike delete(), it does not read the old value first.
        deletes.add(KeyValue.pair(entry.key, null));
      }
    }
    store.putAll(deletes);
    slot.deleteFrom(next);
    metrics.inputsDeleted(slot.tenant(), next - from);
  }
}
