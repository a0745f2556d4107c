package io.isowatch.streams.processor;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Tests' view of {@code tenant-transactions}: each stored input by its index, whatever entry holds it. */
public final class StoredInputEntries {
  private StoredInputEntries() {}

  /** Every input of the tenant stored, by index, as its {@link EngineInput} bytes, in index order. */
  public static Map<Long, byte[]> inputs(final KeyValueStore<TenantKey, byte[]> store, final String tenant) {
    final Map<Long, byte[]> inputs = new LinkedHashMap<>();
    try (KeyValueIterator<TenantKey, byte[]> it = store.prefixScan(tenant, TenantKey.prefix())) {
      it.forEachRemaining(kv -> InputBatch.forEach(kv.key.index(), kv.value,
          (index, bytes, offset, length) -> inputs.put(index, Arrays.copyOfRange(bytes, offset, offset + length))));
    }
    return inputs;
  }

  /** How many inputs an entry's value holds (one for entries written before batches). */
  public static int count(final byte[] entry) {
    return InputBatch.count(entry);
  }
}
