package io.isowatch.core.gen;

import static io.isowatch.core.history.Op.read;
import static io.isowatch.core.history.Op.write;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Emits the minimal pattern of each injected anomaly (MTC Figure 5) on fresh keys ({@code inj<n>-x},
 * {@code inj<n>-y}, initial value 0) and fresh sessions ({@code inj<n>-a}, …). Nothing else reads or
 * writes those keys and nothing else runs in those sessions, so each pattern's cycle is exactly the
 * pattern; its transactions overlap in time except where the pattern needs session order, so no
 * real-time edge joins it to the background either.
 */
final class AnomalyInjector {
  /** Every pattern transaction ends this long after the pattern starts, so all of them overlap. */
  private static final long SPAN_MICROS = 1_000;

  private final SimClock clock;
  private final Emitter out;
  private int instance;

  AnomalyInjector(final SimClock clock, final Emitter out) {
    this.clock = clock;
    this.out = out;
  }

  List<InjectedAnomaly> injectAll(final List<Injection> injections) throws IOException {
    final List<InjectedAnomaly> done = new ArrayList<>();
    for (final Injection inj : injections) {
      for (int i = 0; i < inj.count(); i++) {
        done.add(inject(inj.kind()));
      }
    }
    return done;
  }

  InjectedAnomaly inject(final InjectedKind kind) throws IOException {
    instance++;
    final Pattern p = new Pattern(kind, "inj" + instance + "-", clock.now() + 1, out.emitted());
    final String x = p.key("x");
    final String y = p.key("y");
    switch (kind) {
      case LOST_UPDATE -> {
        p.txn("a", read(x, 0L), write(x, 1));
        p.txn("b", read(x, 0L), write(x, 2));
      }
      case WRITE_SKEW -> {
        p.txn("a", read(x, 0L), read(y, 0L), write(x, 1));
        p.txn("b", read(x, 0L), read(y, 0L), write(y, 1));
      }
      case FRACTURED_READ -> {
        p.txn("a", read(x, 0L), read(y, 0L), write(x, 1), write(y, 1));
        // The stale key first: reading the new one first is NonMonotonicRead (the checker tells
        // the two apart by the reader's program order).
        p.txn("b", read(y, 0L), read(x, 1L));
      }
      case NON_MONOTONIC_READ -> {
        p.txn("a", read(x, 0L), write(x, 1));
        p.txn("b", read(x, 1L), read(y, 0L), write(x, 2), write(y, 1));
        p.txn("c", read(y, 1L), read(x, 1L));
      }
      case CAUSALITY_VIOLATION -> {
        p.txn("a", read(x, 0L), write(x, 1));
        p.txn("b", read(x, 1L), read(y, 0L), write(y, 1));
        p.txn("c", read(x, 0L), read(y, 1L));
      }
      case LONG_FORK -> {
        p.txn("a", read(x, 0L), write(x, 1));
        p.txn("b", read(y, 0L), write(y, 1));
        p.txn("c", read(x, 1L), read(y, 0L));
        p.txn("d", read(x, 0L), read(y, 1L));
      }
      case SESSION_GUARANTEE_VIOLATION -> {
        p.txn("a", read(x, 0L), write(x, 1));
        // b then c in one session, one after the other in time: c misses b's write.
        p.sessionTxn("b", 0, p.start + 1, p.start + 2, read(x, 1L), write(x, 2));
        p.sessionTxn("b", 1, p.start + 3, p.start + 4, read(x, 1L));
      }
      case ABORTED_READ -> {
        p.txn("a", TxnStatus.ABORTED, read(x, 0L), write(x, 1));
        p.txn("b", read(x, 1L));
      }
      case THIN_AIR_READ -> p.txn("a", read(x, 1L));
      case INTERMEDIATE_READ -> {
        p.txn("a", read(x, 0L), write(x, 1), read(x, 1L), write(x, 2));
        p.txn("b", read(x, 1L));
      }
    }
    clock.advanceTo(p.start + SPAN_MICROS + 1);
    return p.result();
  }

  /** One instance being emitted. */
  private final class Pattern {
    private final InjectedKind kind;
    private final String prefix;
    private final long start;
    private final long firstIndex;
    private final List<String> ids = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();

    private Pattern(final InjectedKind kind, final String prefix, final long start, final long firstIndex) {
      this.kind = kind;
      this.prefix = prefix;
      this.start = start;
      this.firstIndex = firstIndex;
    }

    private String key(final String name) {
      return prefix + name;
    }

    private void txn(final String session, final Op... ops) throws IOException {
      txn(session, TxnStatus.COMMITTED, ops);
    }

    private void txn(final String session, final TxnStatus status, final Op... ops) throws IOException {
      emit(session, 0, status, start + ids.size(), start + SPAN_MICROS, ops);
    }

    private void sessionTxn(final String session, final long seq, final long from, final long to, final Op... ops)
        throws IOException {
      emit(session, seq, TxnStatus.COMMITTED, from, to, ops);
    }

    private void emit(final String session, final long seq, final TxnStatus status, final long from, final long to,
        final Op... ops) throws IOException {
      for (final Op op : ops) {
        if (!keys.contains(op.key())) {
          keys.add(op.key());
        }
      }
      ids.add(out.emit(prefix + session, seq, status, from, to, List.of(ops)));
    }

    private InjectedAnomaly result() {
      return new InjectedAnomaly(kind, ids, keys, firstIndex);
    }
  }
}
