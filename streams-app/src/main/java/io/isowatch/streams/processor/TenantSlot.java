package io.isowatch.streams.processor;

import io.isowatch.streams.engine.PruneTotals;
import io.isowatch.streams.engine.TenantEngine;

/**
 * What the processor keeps in memory for one tenant of its task, in one place: its progress as
 * last written to {@code tenant-progress}, its engine while loaded, where its checkpoint and the
 * deletion of the inputs it covers stand, the engine's cuts last recorded in the metrics, and
 * whether it is quarantined. All of it mirrors the stores and is rebuilt from them after a
 * restart or a rebalance ({@link TenantSlots}).
 */
final class TenantSlot {
  private final String tenant;
  private TenantProgress progress;
  private TenantEngine engine;
  private long firstInput;
  private long deleteFrom;
  private PruneTotals prunesSeen = PruneTotals.NONE;
  private Boolean quarantined;
  private InputBatch batch;
  private long deleteCredit;

  TenantSlot(final String tenant, final TenantProgress progress) {
    this.tenant = tenant;
    this.progress = progress;
  }

  String tenant() {
    return tenant;
  }

  /** The tenant's progress as last written to {@code tenant-progress}: read for every record. */
  TenantProgress progress() {
    return progress;
  }

  void progress(final TenantProgress p) {
    this.progress = p;
  }

  /** The tenant's engine, or null when it is not loaded (not used since the start, or quarantined). */
  TenantEngine engine() {
    return engine;
  }

  boolean loaded() {
    return engine != null;
  }

  /**
   * The engine just rebuilt: its checkpoint covers the inputs before {@code firstInput}, of which
   * those before {@code deleteFrom} are deleted. Cuts made while rebuilding were recorded in the
   * metrics when the inputs first came.
   */
  void load(final TenantEngine e, final long first, final long deletedBelow) {
    this.engine = e;
    this.firstInput = first;
    this.deleteFrom = deletedBelow;
    this.prunesSeen = e.pruneTotals();
    this.batch = null;
  }

  /**
   * The batch of {@code tenant-transactions} the tenant's next input may join, or null. In memory
   * only: after a restart the next input starts a new entry.
   */
  InputBatch batch() {
    return batch;
  }

  void batch(final InputBatch b) {
    this.batch = b;
  }

  /** Closes the open batch: the next input starts a new entry (at a checkpoint, so no entry straddles it). */
  void closeBatch() {
    this.batch = null;
  }

  /** Covered inputs the per-arrival deletes may remove but have not yet ({@link StoredInputs#deleteCovered}). */
  long deleteCredit() {
    return deleteCredit;
  }

  void deleteCredit(final long credit) {
    this.deleteCredit = credit;
  }

  /** Drops the engine (a quarantine); returns it, or null when none was loaded. */
  TenantEngine unload() {
    final TenantEngine e = engine;
    engine = null;
    return e;
  }

  /** The first input index a rebuild would replay: the ones before are in the checkpoint. */
  long firstInput() {
    return firstInput;
  }

  void firstInput(final long first) {
    this.firstInput = first;
  }

  /**
   * The lowest input index that may still be stored. Inputs from there to {@link #firstInput()} are
   * covered by the checkpoint and deleted a few per arrival, not all at once: at 10K txn/s a
   * minute's inputs deleted in one go stalled the stream thread for about a second.
   */
  long deleteFrom() {
    return deleteFrom;
  }

  void deleteFrom(final long from) {
    this.deleteFrom = from;
  }

  /**
   * Inputs of the tenant held in {@code tenant-transactions}: those after its checkpoint, and those
   * it covers that are not deleted yet.
   */
  long storedInputs() {
    return progress.inputs() - deleteFrom;
  }

  /** Stored inputs that its checkpoint (if any) does not cover: what a rebuild would replay. */
  long inputsSinceCheckpoint() {
    return progress.inputs() - firstInput;
  }

  /** The engine's cut totals when last recorded in the metrics. */
  PruneTotals prunesSeen() {
    return prunesSeen;
  }

  void prunesSeen(final PruneTotals totals) {
    this.prunesSeen = totals;
  }

  /** Whether {@code tenant-quarantine} holds the tenant; null until read. */
  Boolean quarantined() {
    return quarantined;
  }

  void quarantined(final boolean q) {
    this.quarantined = q;
  }
}
