package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import java.util.List;

/** Reports the seq problems of one session: a start other than 0, gaps and repeats. */
public final class SessionSeqs {
  private SessionSeqs() {}

  /** Receives the findings of a {@link Scan}: the arguments of {@link Findings#add} with no key. */
  @FunctionalInterface
  public interface Sink {
    void add(FindingKind kind, String txn, int line, String message);
  }

  /** {@code bySeq}: the session's transactions, all with a seq, sorted by it. */
  public static void report(final List<Transaction> bySeq, final Findings findings) {
    report(bySeq, findings, 0);
  }

  /**
   * As {@link #report(List, Findings)} for the rest of a session whose earlier transactions, up to
   * seq {@code expectedFirst - 1}, were reported already (a segmented engine pruned them).
   */
  public static void report(final List<Transaction> bySeq, final Findings findings, final long expectedFirst) {
    final Scan scan = new Scan(expectedFirst, (kind, txn, line, message) -> findings.add(kind, null, txn, line, message));
    for (final Transaction t : bySeq) {
      scan.next(t);
    }
  }

  /**
   * The same report, one transaction at a time, so that a session that grew at its end is
   * scanned from where the last scan stopped (the online engine's results). Feed the session's
   * transactions sorted by seq; the findings go to the sink as they are found.
   */
  public static final class Scan {
    private final long expectedFirst;
    private final Sink sink;
    private boolean started;
    private long expected;

    /** {@code expectedFirst}: as in {@link #report(List, Findings, long)}, 0 for a whole session. */
    public Scan(final long expectedFirst, final Sink sink) {
      this.expectedFirst = expectedFirst;
      this.sink = sink;
    }

    public void next(final Transaction t) {
      if (!started) {
        started = true;
        expected = t.seq();
        if (expectedFirst > 0) {
          expected = expectedFirst;
        } else if (expected != 0) {
          sink.add(FindingKind.SEQ_GAP, t.id(), t.line(), "session '" + t.session() + "' starts at seq " + expected
              + ", not 0: earlier transactions are missing from the input");
        }
      }
      if (t.seq() < expected) {
        sink.add(FindingKind.DUPLICATE_SEQ, t.id(), t.line(),
            "session '" + t.session() + "' has two transactions with seq " + t.seq());
      } else if (t.seq() > expected) {
        sink.add(FindingKind.SEQ_GAP, t.id(), t.line(), "session '" + t.session() + "' skips seq " + expected + ".."
            + (t.seq() - 1) + ": input is incomplete there");
      }
      expected = t.seq() + 1;
    }
  }
}
