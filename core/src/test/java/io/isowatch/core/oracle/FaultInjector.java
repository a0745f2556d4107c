package io.isowatch.core.oracle;

import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiPredicate;

/**
 * Tampers with values after a simulated execution, to produce the non-cycle anomalies of MTC Table
 * I (a-g) that no sane execution produces: thin-air, aborted and intermediate reads, and Int
 * violations. Each fault is applied with a small probability; most histories get none.
 */
final class FaultInjector {
  private final Random rnd;
  private final List<TxnDraft> txns;
  private final ValueSource values;
  private final List<String> applied = new ArrayList<>();

  /** One operation of one transaction. */
  private record At(TxnDraft txn, int index) {
    String key() {
      return txn.keys.get(index);
    }

    Long value() {
      return txn.values.get(index);
    }

    void set(final Long v) {
      txn.values.set(index, v);
    }
  }

  FaultInjector(final Random rnd, final List<TxnDraft> txns, final ValueSource values) {
    this.rnd = rnd;
    this.txns = txns;
    this.values = values;
  }

  List<String> injectAll() {
    if (rnd.nextDouble() < 0.04) {
      thinAirRead();
    }
    if (rnd.nextDouble() < 0.04) {
      abortedRead();
    }
    if (rnd.nextDouble() < 0.03) {
      intermediateRead();
    }
    if (rnd.nextDouble() < 0.05) {
      switch (rnd.nextInt(3)) {
        case 0 -> futureRead();
        case 1 -> notMyWrite();
        default -> nonRepeatableRead();
      }
    }
    return List.copyOf(applied);
  }

  private void thinAirRead() {
    pick(ops((t, i) -> t.isRead(i))).ifPresent(at -> {
      at.set(values.thinAir());
      applied.add("thin-air");
    });
  }

  private void abortedRead() {
    final Optional<At> aborted = pick(ops((t, i) -> t.status == TxnStatus.ABORTED && t.isWrite(i)));
    aborted.ifPresent(w -> pick(externalReadsOf(w.key(), w.txn)).ifPresent(r -> {
      r.set(w.value());
      applied.add("aborted-read");
    }));
  }

  private void intermediateRead() {
    final Optional<At> intermediate = pick(ops(TxnDraft::isIntermediateWrite));
    intermediate.ifPresent(w -> pick(externalReadsOf(w.key(), w.txn)).ifPresent(r -> {
      r.set(w.value());
      applied.add("intermediate-read");
    }));
  }

  /** An external read returns the value its own transaction writes later. */
  private void futureRead() {
    pick(ops((t, i) -> t.isRead(i) && !t.writtenBefore(i) && laterWrite(t, i) >= 0)).ifPresent(r -> {
      r.set(r.txn.values.get(laterWrite(r.txn, r.index)));
      applied.add("future-read");
    });
  }

  /** A read after an own write returns something else (NotMyOwnWrite or NotMyLastWrite). */
  private void notMyWrite() {
    pick(ops((t, i) -> t.isRead(i) && t.writtenBefore(i))).ifPresent(r -> {
      r.set(firstValueOfKey(r.txn, r.key()));
      if (r.value() != null && r.value().equals(r.txn.ownWriteBefore(r.index))) {
        r.set(values.thinAir());
      }
      applied.add("not-my-write");
    });
  }

  /** A second read before any write of the key returns another value. */
  private void nonRepeatableRead() {
    pick(ops((t, i) -> t.isRead(i) && !t.writtenBefore(i) && readBefore(t, i))).ifPresent(r -> {
      final Optional<At> other =
          pick(ops((t, i) -> t != r.txn && t.isWrite(i) && t.keys.get(i).equals(r.key())));
      r.set(other.map(At::value).orElseGet(values::thinAir));
      applied.add("non-repeatable-read");
    });
  }

  private static int laterWrite(final TxnDraft t, final int i) {
    for (int j = i + 1; j < t.size(); j++) {
      if (t.isWrite(j) && t.keys.get(j).equals(t.keys.get(i))) {
        return j;
      }
    }
    return -1;
  }

  private static boolean readBefore(final TxnDraft t, final int i) {
    for (int j = 0; j < i; j++) {
      if (t.isRead(j) && t.keys.get(j).equals(t.keys.get(i))) {
        return true;
      }
    }
    return false;
  }

  private static Long firstValueOfKey(final TxnDraft t, final String key) {
    for (int j = 0; j < t.size(); j++) {
      if (t.keys.get(j).equals(key)) {
        return t.values.get(j);
      }
    }
    return null;
  }

  private List<At> externalReadsOf(final String key, final TxnDraft except) {
    return ops((t, i) -> t != except && t.isRead(i) && !t.writtenBefore(i) && t.keys.get(i).equals(key));
  }

  private List<At> ops(final BiPredicate<TxnDraft, Integer> test) {
    final List<At> out = new ArrayList<>();
    for (final TxnDraft t : txns) {
      for (int i = 0; i < t.size(); i++) {
        if (test.test(t, i)) {
          out.add(new At(t, i));
        }
      }
    }
    return out;
  }

  private Optional<At> pick(final List<At> candidates) {
    return candidates.isEmpty()
        ? Optional.empty()
        : Optional.of(candidates.get(rnd.nextInt(candidates.size())));
  }
}
