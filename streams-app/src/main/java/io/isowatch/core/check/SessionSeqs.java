package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import java.util.List;

/** Reports the seq problems of one session: a start other than 0, gaps and repeats. */
public final class SessionSeqs {
  private SessionSeqs() {}

  /** {@code bySeq}: the session's transactions, all with a seq, sorted by it. */
  public static void report(final List<Transaction> bySeq, final Findings findings) {
    long expected = bySeq.get(0).seq();
    if (expected != 0) {
      findings.add(FindingKind.SEQ_GAP, null, bySeq.get(0).id(), bySeq.get(0).line(),
          "session '" + bySeq.get(0).session() + "' starts at seq " + expected
              + ", not 0: earlier transactions are missing from the input");
    }
    for (final Transaction t : bySeq) {
      if (t.seq() < expected) {
        findings.add(FindingKind.DUPLICATE_SEQ, null, t.id(), t.line(),
            "session '" + t.session() + "' has two transactions with seq " + t.seq());
      } else if (t.seq() > expected) {
        findings.add(FindingKind.SEQ_GAP, null, t.id(), t.line(),
            "session '" + t.session() + "' skips seq " + expected + ".." + (t.seq() - 1)
                + ": input is incomplete there");
      }
      expected = t.seq() + 1;
    }
  }
}
