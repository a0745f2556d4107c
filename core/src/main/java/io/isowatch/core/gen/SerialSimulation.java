package io.isowatch.core.gen;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * SER simulation: each step runs one whole mini-transaction of a random session against the
 * current state, so the emission order is a serial order. Start times increase along it and each
 * session's transactions follow one another in time, so real time never contradicts it: the
 * history is strictly serializable. Each write installs the key's next counter value (1, 2, …), so
 * values are unique per key and never the initial 0.
 */
final class SerialSimulation implements Simulation {
  private final Workload w;
  private final SimClock clock;
  private final Emitter out;
  private final long[] current;
  private final long[] seq;
  private final long[] lastEnd;
  private final int maxDurationMicros;

  SerialSimulation(final Workload w, final SimClock clock, final Emitter out) {
    this.w = w;
    this.clock = clock;
    this.out = out;
    current = new long[w.keys()];
    seq = new long[w.sessions()];
    lastEnd = new long[w.sessions()];
    // About as many transactions overlap one another in time as there are sessions.
    maxDurationMicros = 10 * w.sessions();
  }

  @Override
  public void step() throws IOException {
    final int s = w.nextSession();
    final MtShape shape = w.nextShape();
    final int k1 = w.nextKey();
    final int k2 = shape.keyCount() == 2 ? w.nextKeyOtherThan(k1) : -1;
    final long start = clock.tick(w.rnd(), lastEnd[s] + 1);
    final long end = start + 1 + w.rnd().nextInt(maxDurationMicros);
    final List<Op> ops = new ArrayList<>(shape.steps().size());
    for (final MtShape.Step st : shape.steps()) {
      final int k = st.slot() == 1 ? k1 : k2;
      ops.add(st.write() ? write(k) : read(k));
    }
    lastEnd[s] = end;
    out.emit(w.sessionName(s), seq[s]++, TxnStatus.COMMITTED, start, end, ops);
  }

  private Op read(final int k) {
    return Op.read(w.keyName(k), current[k]);
  }

  private Op write(final int k) {
    return Op.write(w.keyName(k), ++current[k]);
  }
}
