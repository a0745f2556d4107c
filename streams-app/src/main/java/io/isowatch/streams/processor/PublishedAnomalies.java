package io.isowatch.streams.processor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@code published-anomalies} store: the anomaly ids already published per tenant, each with
 * its <em>position</em>, the number of the tenant's inputs stored when its engine last reported it
 * (so the input that made the engine report it has index {@code position - 1}). Trimmed so that it
 * stays bounded (docs/segmentation.md, "Streaming"):
 *
 * <p>A rebuild from a checkpoint whose first input is {@code c} is exact: it reports from then on
 * what the engine that made the checkpoint reported from input {@code c} on, and an engine reports
 * each anomaly once in its life. So an id whose position is at most {@code c} can never be
 * reported again once that checkpoint is stored, and is deleted, a few per arriving input like the
 * covered inputs. The one inexact rebuild is a replay from the tenant's first input without a
 * checkpoint (its cuts fall elsewhere than the live engine's did): after one, the ids published
 * before it are kept for good ({@link #KEEP}); there are few (only a tenant's first prune interval
 * has no checkpoint).
 *
 * <p>Values written by earlier versions (the detection time in µs) are at least {@link
 * #NEVER_TRIMMED}, far above any input count, so they are never trimmed.
 */
final class PublishedAnomalies {
  /** The position of an id that is never trimmed. */
  static final long KEEP = Long.MAX_VALUE;
  /** Positions from here on are never trimmed (2^50: detection times in µs of earlier versions). */
  static final long NEVER_TRIMMED = 1L << 50;

  private final KeyValueStore<TenantKey, Long> store;
  /** Per tenant: ids planned for deletion, with the checkpoint's first input that allows it. */
  private final Map<String, ArrayDeque<KeyValue<TenantKey, Long>>> planned = new HashMap<>();

  PublishedAnomalies(final KeyValueStore<TenantKey, Long> store) {
    this.store = store;
  }

  /**
   * Whether the id was published before; if so its position moves to {@code position} when later
   * (an engine reported it again, so a rebuild from before here might as well).
   */
  boolean seen(final TenantKey id, final long position) {
    final Long at = store.get(id);
    if (at == null) {
      return false;
    }
    if (at < position && at < NEVER_TRIMMED) {
      store.put(id, position);
    }
    return true;
  }

  /** Records a newly published id at {@code position}. */
  void record(final TenantKey id, final long position) {
    store.put(id, position);
  }

  /**
   * An entry a release before uniqueIds wrote under the anomaly's {@code legacy} anomalyId (its value
   * a detection time, never trimmed) is moved to {@code id}; returns whether there was one.
   */
  boolean adoptLegacy(final TenantKey legacy, final TenantKey id) {
    final Long at = store.get(legacy);
    if (at == null) {
      return false;
    }
    store.delete(legacy);
    store.put(id, at);
    return true;
  }

  /**
   * The first detection time (µs) of a published id, known only for entries written by releases
   * that stored it (values from {@link #NEVER_TRIMMED} on); empty for positions and unknown ids.
   */
  java.util.Optional<Long> detectionTime(final TenantKey id) {
    final Long at = store.get(id);
    return at != null && at >= NEVER_TRIMMED && at != KEEP ? java.util.Optional.of(at) : java.util.Optional.empty();
  }

  /**
   * After an inexact rebuild of the tenant (its inputs replayed from the first without a
   * checkpoint): every id published so far is kept for good. Returns how many were marked.
   */
  int keepAll(final String tenant) {
    final List<KeyValue<TenantKey, Long>> marks = new ArrayList<>();
    try (KeyValueIterator<TenantKey, Long> it = store.prefixScan(tenant, TenantKey.prefix())) {
      it.forEachRemaining(kv -> {
        if (kv.value != null && kv.value < NEVER_TRIMMED) {
          marks.add(KeyValue.pair(kv.key, KEEP));
        }
      });
    }
    store.putAll(marks);
    planned.remove(tenant);
    return marks.size();
  }

  /**
   * A checkpoint of the tenant covering every input below {@code firstInput} is stored: plans the
   * deletion of every id whose position is at most that. Returns how many were planned.
   */
  int planTrim(final String tenant, final long firstInput) {
    final ArrayDeque<KeyValue<TenantKey, Long>> ids = new ArrayDeque<>();
    try (KeyValueIterator<TenantKey, Long> it = store.prefixScan(tenant, TenantKey.prefix())) {
      it.forEachRemaining(kv -> {
        if (kv.value != null && kv.value <= firstInput) {
          ids.add(KeyValue.pair(kv.key, firstInput));
        }
      });
    }
    if (ids.isEmpty()) {
      planned.remove(tenant);
    } else {
      planned.put(tenant, ids);
    }
    return ids.size();
  }

  /**
   * Deletes up to {@code most} of the ids planned for the tenant; an id reported again since the
   * plan (at a later position) stays. Returns how many were deleted.
   */
  int trim(final String tenant, final int most) {
    final ArrayDeque<KeyValue<TenantKey, Long>> ids = planned.get(tenant);
    if (ids == null) {
      return 0;
    }
    final List<KeyValue<TenantKey, Long>> deletes = new ArrayList<>(most);
    while (deletes.size() < most && !ids.isEmpty()) {
      final KeyValue<TenantKey, Long> id = ids.poll();
      final Long at = store.get(id.key);
      if (at != null && at <= id.value) {
        deletes.add(KeyValue.pair(id.key, null));
      }
    }
    if (ids.isEmpty()) {
      planned.remove(tenant);
    }
    store.putAll(deletes);
    return deletes.size();
  }

  /** Ids planned for deletion and not deleted yet, for the tenant. */
  int plannedFor(final String tenant) {
    final ArrayDeque<KeyValue<TenantKey, Long>> ids = planned.get(tenant);
    return ids == null ? 0 : ids.size();
  }

  /** Forgets every plan (the in-memory state of a task initialised again). */
  void clear() {
    planned.clear();
  }
}
