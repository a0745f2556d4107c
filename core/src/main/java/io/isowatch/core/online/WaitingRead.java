package io.isowatch.core.online;

/**
 * A pending read that still waits for its writer after a cut: its key id, value, op index and its
 * reader's π position in the new segment. A cut's replay creates pending reads again; only those
 * the replaced state still had waiting keep waiting, so that nothing is reported twice.
 */
record WaitingRead(int key, long value, int op, int readerPos) {
  /** The reads {@code s} has waiting, readers' π positions shifted down by {@code cut}. */
  static java.util.Set<WaitingRead> of(final OnlineState s, final int cut) {
    final java.util.Set<WaitingRead> out = new java.util.LinkedHashSet<>();
    s.pending.forEachWaiting(e -> out.add(new WaitingRead(s.pending.key(e), s.pending.value(e), s.pending.op(e),
        s.txns.piPos(s.pending.reader(e)) - cut)));
    return out;
  }
}
