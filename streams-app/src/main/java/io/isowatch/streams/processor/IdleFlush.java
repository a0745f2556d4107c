package io.isowatch.streams.processor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stream-time punctuator (when {@code check.idle.flush.ms} is set): flushes each tenant that has
 * buffered transactions and no arrival for that long in stream time (the end of a replayed topic,
 * a client that stopped). The flush is stored as an input, so a rebuild replays it; a transaction
 * of that tenant arriving later is processed as late.
 */
final class IdleFlush {
  private static final Logger LOG = LoggerFactory.getLogger(IdleFlush.class);
  private static final Duration MIN_CHECK = Duration.ofMillis(1);

  private final Duration idle;
  private final TenantSlots slots;
  private final EngineLoader engines;
  private final EngineFeed feed;
  private final TenantQuarantine guard;

  IdleFlush(final Duration idle, final TenantSlots slots, final EngineLoader engines, final EngineFeed feed,
      final TenantQuarantine guard) {
    this.idle = idle;
    this.slots = slots;
    this.engines = engines;
    this.feed = feed;
    this.guard = guard;
  }

  /** How often to look: a few times per idle period bounds how much longer than it a flush can come. */
  static Duration checkEvery(final Duration idle) {
    final Duration every = idle.dividedBy(4);
    return every.compareTo(MIN_CHECK) < 0 ? MIN_CHECK : every;
  }

  void punctuate(final long streamTimeMs) {
    loadIdleTenantsNotLoaded(streamTimeMs);
    final List<TenantSlot> flushing = new ArrayList<>();
    for (final TenantSlot slot : slots.loaded()) {
      final long buffered = slot.engine().buffered();
      final long idleMs = streamTimeMs - slot.progress().lastArrivalMs();
      if (buffered == 0 || idleMs < idle.toMillis()) {
        continue;
      }
      LOG.info("Flushing idle tenant tenant=[{}] buffered=[{}] idleMs=[{}]", slot.tenant(), buffered, idleMs);
      flushing.add(slot);
    }
    // Outside the loop over the loaded engines: a quarantine drops the tenant's engine.
    for (final TenantSlot slot : flushing) {
      guard.run(slot.tenant(), () -> feed.flush(slot, streamTimeMs));
    }
  }

  /**
   * Rebuilds the engine of every tenant of this task's stores that is not loaded and has been idle
   * for the idle-flush period: an engine lives in memory only, so after a restart, a rebalance or a
   * replaced stream thread a tenant that sends nothing more would otherwise keep its buffered
   * transactions (and the anomalies they prove) unflushed for good. Checked at every punctuation,
   * since a tenant may become idle after the first one; a loaded tenant stays loaded, and
   * quarantined tenants are left alone (one map lookup each).
   */
  private void loadIdleTenantsNotLoaded(final long streamTimeMs) {
    final List<String> idleTenants = new ArrayList<>();
    slots.forEachStored((tenant, p) -> {
      if (!slots.isLoaded(tenant) && streamTimeMs - p.lastArrivalMs() >= idle.toMillis()) {
        idleTenants.add(tenant);
      }
    });
    for (final String tenant : idleTenants) {
      guard.run(tenant, () -> engines.loaded(tenant));
    }
  }
}
