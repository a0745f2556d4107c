package io.isowatch.streams.processor;

/**
 * When a tenant is checkpointed besides the prunes that cut its engine: at the prune punctuation
 * when it has inputs its checkpoint does not cover, and at once every {@code everyInputs} inputs
 * (at high rates an interval of stream time holds many inputs, and a rebuild replays those after
 * the checkpoint). So a rebuild replays at most one interval's inputs, and never more than that many.
 *
 * @param everyInputs inputs of a tenant after which it is pruned and checkpointed at once
 */
record CheckpointPolicy(long everyInputs) {
  /** Whether the tenant has stored inputs that its checkpoint (if any) does not cover. */
  boolean uncovered(final TenantSlot slot) {
    return slot.inputsSinceCheckpoint() > 0;
  }

  /** Whether the tenant is due a prune and checkpoint now, whatever the prune interval. */
  boolean dueByInputs(final TenantSlot slot) {
    return slot.inputsSinceCheckpoint() >= everyInputs;
  }
}
