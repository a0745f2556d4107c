package io.isowatch.agent.run;

import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.core.history.TxnStatus;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Live counts of a run, updated by every session. */
final class RunStats {
  final LongAdder committed = new LongAdder();
  final LongAdder aborted = new LongAdder();
  final LongAdder unknown = new LongAdder();
  final LongAdder snapshots = new LongAdder();
  final LongAdder errors = new LongAdder();
  final LongAdder reconnects = new LongAdder();
  private final Map<String, LongAdder> failureCodes = new ConcurrentHashMap<>();

  void record(final Attempt a, final boolean snapshot) {
    final TxnStatus s = a.txn().status();
    switch (s) {
      case COMMITTED -> committed.increment();
      case ABORTED -> aborted.increment();
      case UNKNOWN -> unknown.increment();
    }
    if (snapshot) {
      snapshots.increment();
    }
    if (a.failure() != null) {
      failureCodes.computeIfAbsent(a.failure().failure().name().toLowerCase(Locale.ROOT)
          + " " + a.failure().code(), k -> new LongAdder()).increment();
      if (a.failure().failure() == Failure.ERROR) {
        errors.increment();
      }
    }
  }

  long total() {
    return committed.sum() + aborted.sum() + unknown.sum();
  }

  /** Failures by kind and code, e.g. {@code aborted 40001 → 123}. */
  Map<String, Long> failureCodes() {
    final Map<String, Long> out = new TreeMap<>();
    failureCodes.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
