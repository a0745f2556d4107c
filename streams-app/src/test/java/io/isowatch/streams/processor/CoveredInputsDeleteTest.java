package io.isowatch.streams.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.streams.Stores;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, item 2: the deletes of covered inputs, spread over arrivals, read only the entries they
 * may delete. A range up to the checkpoint made the cached {@code tenant-transactions} copy every
 * covered key still in its cache into a sorted set at every call (12.7% of the stream thread).
 */
class CoveredInputsDeleteTest {
  @TempDir Path stateDir;

  private MockStores stores;

  @AfterEach
  void tearDown() {
    stores.close();
  }

  @Test
  void shouldReadNoFurtherThanTheCreditWhenTheCheckpointCoversManyEntries() {
    // Given: 100 full entries (3,200 inputs), all covered by the checkpoint
    stores = MockStores.forCheckProcessor(stateDir, 0, Map.of());
    final KeyValueStore<TenantKey, byte[]> store = stores.context().getStateStore(Stores.TENANT_TRANSACTIONS);
    final int entries = 100;
    for (int e = 0; e < entries; e++) {
      final InputBatch batch = new InputBatch((long) e * InputBatch.MAX_INPUTS);
      for (int i = 0; i < InputBatch.MAX_INPUTS; i++) {
        batch.add(new byte[] {1, 2, 3});
      }
      store.put(TenantKey.ofIndex("acme", batch.first()), batch.bytes());
    }
    final long covered = (long) entries * InputBatch.MAX_INPUTS;
    final TenantSlot slot = new TenantSlot("acme", TenantProgress.empty());
    slot.firstInput(covered);
    slot.deleteFrom(0);
    final List<long[]> ranges = new ArrayList<>();
    final StoredInputs inputs = new StoredInputs(recordingRanges(store, ranges), new CheckerMetrics());

    // When: deletes spread over arrivals, a batch's worth of credit at a time, until all are gone
    int calls = 0;
    while (slot.deleteFrom() < covered) {
      inputs.deleteCoveredNow(slot, InputBatch.MAX_INPUTS);
      calls++;
      assertTrue(calls <= entries, "no progress at " + slot.deleteFrom());
    }

    // Then: one entry per call, each read by a range that ends where the call's credit ends
    assertEquals(entries, calls);
    for (final long[] r : ranges) {
      assertEquals(InputBatch.MAX_INPUTS - 1, r[1] - r[0], "range " + r[0] + ".." + r[1]);
    }
    try (KeyValueIterator<TenantKey, byte[]> left = store.all()) {
      assertTrue(!left.hasNext(), "every covered entry deleted");
    }
  }

  @Test
  void shouldDeleteUpToTheCheckpointWhenTheCreditExceedsWhatIsCovered() {
    // Given: three entries, the checkpoint covering the first two
    stores = MockStores.forCheckProcessor(stateDir, 0, Map.of());
    final KeyValueStore<TenantKey, byte[]> store = stores.context().getStateStore(Stores.TENANT_TRANSACTIONS);
    for (int e = 0; e < 3; e++) {
      final InputBatch batch = new InputBatch((long) e * InputBatch.MAX_INPUTS);
      for (int i = 0; i < InputBatch.MAX_INPUTS; i++) {
        batch.add(new byte[] {4});
      }
      store.put(TenantKey.ofIndex("acme", batch.first()), batch.bytes());
    }
    final TenantSlot slot = new TenantSlot("acme", TenantProgress.empty());
    slot.firstInput(2L * InputBatch.MAX_INPUTS);
    slot.deleteFrom(0);

    // When: a checkpoint's whole backlog at once, as TenantCheckpointer asks
    new StoredInputs(store, new CheckerMetrics()).deleteCoveredNow(slot, Long.MAX_VALUE);

    // Then: the covered two are gone, the third stays
    assertEquals(2L * InputBatch.MAX_INPUTS, slot.deleteFrom());
    final List<Long> left = new ArrayList<>();
    try (KeyValueIterator<TenantKey, byte[]> it = store.all()) {
      it.forEachRemaining(kv -> left.add(kv.key.index()));
    }
    assertEquals(List.of(2L * InputBatch.MAX_INPUTS), left);
  }

  @SuppressWarnings("unchecked")
  private static KeyValueStore<TenantKey, byte[]> recordingRanges(final KeyValueStore<TenantKey, byte[]> store,
      final List<long[]> ranges) {
    return (KeyValueStore<TenantKey, byte[]>) Proxy.newProxyInstance(KeyValueStore.class.getClassLoader(),
        new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
          if (method.getName().equals("range")) {
            ranges.add(new long[] {((TenantKey) args[0]).index(), ((TenantKey) args[1]).index()});
          }
          try {
            return method.invoke(store, args);
          } catch (final java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
