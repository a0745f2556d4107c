package io.isowatch.streams.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link TenantSlot} of every tenant the task has seen since it was initialised, each made on
 * first use from the {@code tenant-progress} store, which it writes through. A task initialised
 * again (after a restore, or a corrupted state under exactly-once) starts with none: the slots are
 * rebuilt from the stores.
 */
final class TenantSlots {
  private final Map<String, TenantSlot> slots = new HashMap<>();
  private final KeyValueStore<String, TenantProgress> progress;

  TenantSlots(final KeyValueStore<String, TenantProgress> progress) {
    this.progress = progress;
  }

  /** The tenant's slot, made from its stored progress on first use. */
  TenantSlot of(final String tenant) {
    return slots.computeIfAbsent(tenant, t -> {
      final TenantProgress stored = progress.get(t);
      return new TenantSlot(t, stored == null ? TenantProgress.empty() : stored);
    });
  }

  /** Whether the tenant's engine is in memory. */
  boolean isLoaded(final String tenant) {
    final TenantSlot slot = slots.get(tenant);
    return slot != null && slot.loaded();
  }

  /** The slots whose engine is in memory (a copy: loading or quarantining while iterating is safe). */
  List<TenantSlot> loaded() {
    final List<TenantSlot> out = new ArrayList<>();
    for (final TenantSlot slot : slots.values()) {
      if (slot.loaded()) {
        out.add(slot);
      }
    }
    return out;
  }

  /** Keeps and stores the tenant's new progress. */
  void save(final TenantSlot slot, final TenantProgress p) {
    slot.progress(p);
    progress.put(slot.tenant(), p);
  }

  /** Every tenant of the task's {@code tenant-progress} store with its stored progress, loaded or not. */
  void forEachStored(final BiConsumer<String, TenantProgress> action) {
    try (KeyValueIterator<String, TenantProgress> it = progress.all()) {
      it.forEachRemaining(kv -> action.accept(kv.key, kv.value));
    }
  }
}
