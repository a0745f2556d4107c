package io.isowatch.core.gen;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * SI simulation. A step picks a random session: if it has no transaction in flight it begins one,
 * which reads the latest committed state (its snapshot) and draws fresh values for its writes;
 * otherwise it commits the one in flight under first-committer-wins: if a transaction that
 * committed after the snapshot wrote one of its keys, it is emitted as aborted and its writes are
 * never installed. The result satisfies SI (no lost update, no fractured snapshot) but may contain
 * write skew. About half the sessions have a transaction in flight at any time.
 */
final class SnapshotSimulation implements Simulation {
  private final Workload w;
  private final SimClock clock;
  private final Emitter out;
  private final long[] committedValue;
  private final long[] lastAllocated;
  private final long[] commitTs;
  private final long[] seq;
  private final long[] lastEnd;
  private final InFlight[] inFlight;
  private long commitCounter;

  SnapshotSimulation(final Workload w, final SimClock clock, final Emitter out) {
    this.w = w;
    this.clock = clock;
    this.out = out;
    committedValue = new long[w.keys()];
    lastAllocated = new long[w.keys()];
    commitTs = new long[w.keys()];
    seq = new long[w.sessions()];
    lastEnd = new long[w.sessions()];
    inFlight = new InFlight[w.sessions()];
  }

  @Override
  public void step() throws IOException {
    final int s = w.nextSession();
    if (inFlight[s] == null) {
      inFlight[s] = begin(s);
    } else {
      commit(s, inFlight[s]);
      inFlight[s] = null;
    }
  }

  private InFlight begin(final int s) {
    final MtShape shape = w.nextShape();
    final int k1 = w.nextKey();
    final int k2 = shape.keyCount() == 2 ? w.nextKeyOtherThan(k1) : -1;
    final long start = clock.tick(w.rnd(), lastEnd[s] + 1);
    final InFlight t = new InFlight(start, commitCounter);
    // Reads see the snapshot (the committed state now); values are drawn now so they stay unique
    // per key even when the transaction aborts.
    final List<Op> ops = new ArrayList<>(shape.steps().size());
    for (final MtShape.Step st : shape.steps()) {
      final int k = st.slot() == 1 ? k1 : k2;
      ops.add(st.write() ? t.write(k, w.keyName(k), ++lastAllocated[k]) : read(k));
    }
    t.ops = ops;
    return t;
  }

  private void commit(final int s, final InFlight t) throws IOException {
    final long end = clock.tick(w.rnd(), t.start + 1);
    boolean conflict = false;
    for (int i = 0; i < t.writes; i++) {
      conflict |= commitTs[t.writeKeys[i]] > t.snapshot;
    }
    if (!conflict && t.writes > 0) {
      final long ts = ++commitCounter;
      for (int i = 0; i < t.writes; i++) {
        committedValue[t.writeKeys[i]] = t.writeValues[i];
        commitTs[t.writeKeys[i]] = ts;
      }
    }
    lastEnd[s] = end;
    out.emit(w.sessionName(s), seq[s]++, conflict ? TxnStatus.ABORTED : TxnStatus.COMMITTED, t.start, end, t.ops);
  }

  private Op read(final int k) {
    return Op.read(w.keyName(k), committedValue[k]);
  }

  /** A begun, uncommitted transaction: at most one per session. */
  private static final class InFlight {
    private final long start;
    private final long snapshot;
    private final int[] writeKeys = new int[2];
    private final long[] writeValues = new long[2];
    private int writes;
    private List<Op> ops;

    private InFlight(final long start, final long snapshot) {
      this.start = start;
      this.snapshot = snapshot;
    }

    /** A write, installed at commit in program order (so a key written twice ends at its last value). */
    private Op write(final int key, final String name, final long value) {
      writeKeys[writes] = key;
      writeValues[writes] = value;
      writes++;
      return Op.write(name, value);
    }
  }
}
