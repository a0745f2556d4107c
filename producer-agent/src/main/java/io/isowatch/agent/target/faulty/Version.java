package io.isowatch.agent.target.faulty;

/**
 * One committed value of a key in the faulty store.
 *
 * <p>{@code prev} is the version its writer read before overwriting it (its parent); after a
 * lost update two versions share a parent. It is cut (set to null) once the writer falls out of
 * the store's window, so that old history can be collected.
 */
final class Version {
  final long value;
  final Writer writer;
  final Long intermediate;
  Version prev;

  Version(final long value, final Writer writer, final Version prev, final Long intermediate) {
    this.value = value;
    this.writer = writer;
    this.prev = prev;
    this.intermediate = intermediate;
  }

  /** The version whose parent is {@code this}, on the chain from {@code latest}; null if none. */
  Version successorOn(final Version latest) {
    Version v = latest;
    Version next = null;
    while (v != null && v != this) {
      next = v;
      v = v.prev;
    }
    return v == this ? next : null;
  }
}
