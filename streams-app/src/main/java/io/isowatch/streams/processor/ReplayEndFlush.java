package io.isowatch.streams.processor;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At the last record of a replayed partition ({@code replay.end.offsets}, {@link ReplayEnd}):
 * flushes every tenant of the task with buffered transactions or waiting reads, and publishes the
 * verdicts now, in the same transaction as that record's offset.
 */
final class ReplayEndFlush {
  private static final Logger LOG = LoggerFactory.getLogger(ReplayEndFlush.class);

  private final ReplayEnd end;
  private final TenantSlots slots;
  private final EngineLoader engines;
  private final EngineFeed feed;
  private final VerdictPublisher verdicts;
  private final TenantQuarantine guard;

  ReplayEndFlush(final ReplayEnd end, final TenantSlots slots, final EngineLoader engines, final EngineFeed feed,
      final VerdictPublisher verdicts, final TenantQuarantine guard) {
    this.end = end;
    this.slots = slots;
    this.engines = engines;
    this.feed = feed;
    this.verdicts = verdicts;
    this.guard = guard;
  }

  /**
   * Flushes everything when {@code m} is the last record of its replayed partition.
   *
   * @return whether it was that last record (the caller then asks for a commit at once, so that the
   *     replay's end does not wait for the next commit interval)
   */
  boolean after(final RecordMetadata m, final long streamTimeMs) {
    if (end.isEmpty() || !end.isLast(m.partition(), m.offset())) {
      return false;
    }
    final List<String> tenants = new ArrayList<>();
    slots.forEachStored((tenant, p) -> tenants.add(tenant));
    for (final String tenant : tenants) {
      guard.run(tenant, () -> {
        final TenantSlot slot = engines.loaded(tenant);
        if (slot.engine().buffered() > 0 || slot.engine().pendingReads() > 0) {
          feed.flush(slot, streamTimeMs);
        }
      });
    }
    LOG.info("End of replayed partition, tenants flushed {} tenants=[{}]", RecordCoordinates.of(m), tenants.size());
    verdicts.publishChangedNow(guard);
    return true;
  }
}
