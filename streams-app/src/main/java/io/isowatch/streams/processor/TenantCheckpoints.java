package io.isowatch.streams.processor;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@code tenant-checkpoints} store: per tenant, the latest checkpoint of its engine in chunks
 * (each one Kafka record of the changelog, below the brokers' default 1 MiB message limit) and a
 * manifest naming them (docs/segmentation.md, "Checkpoints"). A new checkpoint is written under
 * the next generation's keys, then the manifest switches to it, then the previous generation's
 * chunks are deleted: the manifest never names a chunk that is not there.
 */
final class TenantCheckpoints {
  /** Chunk size: a changelog record each, well under the brokers' default message limit. */
  static final int CHUNK_BYTES = 512 * 1024;
  /** Chunk keys are {@code generation * CHUNKS_PER_GENERATION + chunk}. */
  private static final long CHUNKS_PER_GENERATION = 1L << 20;
  private static final String MANIFEST = "checkpoint-manifest";

  private final KeyValueStore<TenantKey, byte[]> store;

  TenantCheckpoints(final KeyValueStore<TenantKey, byte[]> store) {
    this.store = store;
  }

  /** The tenant's current checkpoint, or null when it has none. */
  CheckpointManifest manifest(final String tenant) {
    final byte[] bytes = store.get(TenantKey.ofItem(tenant, MANIFEST));
    return bytes == null ? null : CheckpointManifest.fromBytes(bytes);
  }

  /** The checkpoint a manifest names, reassembled. */
  byte[] read(final String tenant, final CheckpointManifest m) {
    final byte[] out = new byte[Math.toIntExact(m.bytes())];
    int at = 0;
    for (int i = 0; i < m.chunks(); i++) {
      final byte[] chunk = store.get(chunkKey(tenant, m.generation(), i));
      if (chunk == null || at + chunk.length > out.length) {
        throw new IllegalStateException("tenant-checkpoints: chunk " + i + " of generation " + m.generation()
            + " of tenant '" + tenant + "' is " + (chunk == null ? "missing" : "larger than the manifest says"));
      }
      System.arraycopy(chunk, 0, out, at, chunk.length);
      at += chunk.length;
    }
    if (at != out.length) {
      throw new IllegalStateException("tenant-checkpoints: generation " + m.generation() + " of tenant '" + tenant
          + "' has " + at + " bytes, its manifest says " + m.bytes());
    }
    return out;
  }

  /**
   * Stores a new checkpoint covering every input before {@code firstInput}, of which those before
   * {@code deletedBelow} are deleted, and drops the previous one; returns the new manifest.
   */
  CheckpointManifest write(final String tenant, final byte[] checkpoint, final long firstInput,
      final long deletedBelow, final CheckpointManifest previous) {
    final long generation = previous == null ? 1 : previous.generation() + 1;
    final int chunks = Math.max(1, (checkpoint.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
    if (chunks >= CHUNKS_PER_GENERATION) {
      throw new IllegalStateException("checkpoint of tenant '" + tenant + "' too large: " + checkpoint.length + " bytes");
    }
    final List<KeyValue<TenantKey, byte[]>> puts = new ArrayList<>(chunks);
    for (int i = 0; i < chunks; i++) {
      final int from = i * CHUNK_BYTES;
      final int to = Math.min(checkpoint.length, from + CHUNK_BYTES);
      puts.add(KeyValue.pair(chunkKey(tenant, generation, i), java.util.Arrays.copyOfRange(checkpoint, from, to)));
    }
    store.putAll(puts);
    final CheckpointManifest m = new CheckpointManifest(generation, chunks, checkpoint.length, firstInput, deletedBelow);
    store.put(TenantKey.ofItem(tenant, MANIFEST), m.toBytes());
    if (previous != null) {
      final List<KeyValue<TenantKey, byte[]>> deletes = new ArrayList<>(previous.chunks());
      for (int i = 0; i < previous.chunks(); i++) {
        deletes.add(KeyValue.pair(chunkKey(tenant, previous.generation(), i), null));
      }
      store.putAll(deletes);
    }
    return m;
  }

  private static TenantKey chunkKey(final String tenant, final long generation, final int chunk) {
    return TenantKey.ofIndex(tenant, generation * CHUNKS_PER_GENERATION + chunk);
  }
}
