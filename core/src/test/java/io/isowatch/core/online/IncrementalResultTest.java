package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A result read after every transaction (the verdict punctuator's way, which keeps the sessions'
 * seq scans from one result to the next) equals the result of a new engine fed the same
 * transactions and read once: seq gaps, duplicates, late members landing mid-session, sessions
 * with and without seqs, and more findings of a kind than are kept as examples.
 */
class IncrementalResultTest {
  private static final int HISTORIES = 150;
  private static final CheckOptions OPTIONS = CheckOptions.defaults();

  @Test
  void shouldEqualAResultReadOnceWhenReadAfterEveryTransaction() {
    int withSeqFindings = 0;
    for (int h = 0; h < HISTORIES; h++) {
      // Given
      final Random rnd = new Random(9_100L + h);
      final List<Transaction> arrivals = HistoryDsl.history(randomHistory(rnd)).transactions();
      final long grace = rnd.nextInt(4) * 15L;
      final OnlineChecker incremental = new OnlineChecker(OPTIONS, OnlineOptions.streaming(grace));

      for (int k = 0; k < arrivals.size(); k++) {
        // When
        incremental.accept(arrivals.get(k));
        final CheckResult stepwise = incremental.result();

        // Then
        final CheckResult once = readOnce(arrivals.subList(0, k + 1), grace, false);
        assertEquals(once.findings(), stepwise.findings(), "history " + h + " after " + (k + 1) + " transactions");
        assertEquals(once.verdicts(), stepwise.verdicts(), "history " + h + " after " + (k + 1) + " transactions");
      }
      incremental.flush();
      final CheckResult last = incremental.result();
      assertEquals(readOnce(arrivals, grace, true).findings(), last.findings(), "history " + h + " flushed");
      if (last.findings().stream().anyMatch(f -> f.kind() == FindingKind.SEQ_GAP || f.kind() == FindingKind.DUPLICATE_SEQ)) {
        withSeqFindings++;
      }
    }
    // The histories must exercise what they are meant to.
    assertTrue(withSeqFindings > HISTORIES / 2, "histories with seq findings: " + withSeqFindings);
  }

  @Test
  void shouldCountEverySeqGapWhenASessionHasMoreThanTheExamplesKept() {
    // Given: one session skipping a seq eight times
    final StringBuilder text = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      text.append("T").append(i).append(" s1 w(x").append(i).append(",1) @").append(10 * i + 1).append("..")
          .append(10 * i + 2).append(" seq=").append(2 * i).append('\n');
    }
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(0));

    // When
    HistoryDsl.history(text.toString()).transactions().forEach(t -> {
      c.accept(t);
      c.result();
    });
    c.flush();

    // Then: seq 0 is there, then 7 gaps (1, 3, ..., 13), five shown
    final Finding gaps = c.result().findings().stream().filter(f -> f.kind() == FindingKind.SEQ_GAP)
        .findFirst().orElseThrow();
    assertEquals(7, gaps.count());
    assertEquals(List.of("T1", "T2", "T3", "T4", "T5"), gaps.txns());
  }

  private static CheckResult readOnce(final List<Transaction> arrivals, final long grace, final boolean flush) {
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(grace));
    arrivals.forEach(c::accept);
    if (flush) {
      c.flush();
    }
    return c.result();
  }

  /**
   * Up to four sessions, mostly in seq order with gaps, repeats and a few swapped neighbours (a
   * late one lands mid-session); one session in five without seqs; end times rising with jitter.
   */
  private static String randomHistory(final Random rnd) {
    final int sessions = 1 + rnd.nextInt(4);
    final long[] nextSeq = new long[sessions];
    final boolean[] noSeq = new boolean[sessions];
    for (int s = 0; s < sessions; s++) {
      nextSeq[s] = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(3) : 0;
      noSeq[s] = rnd.nextInt(5) == 0;
    }
    final List<String> lines = new ArrayList<>();
    final int n = 5 + rnd.nextInt(30);
    for (int i = 0; i < n; i++) {
      final int s = rnd.nextInt(sessions);
      final int roll = rnd.nextInt(10);
      final long seq = roll == 0 ? Math.max(0, nextSeq[s] - 1) : nextSeq[s] + (roll == 1 ? 1 + rnd.nextInt(3) : 0);
      nextSeq[s] = Math.max(nextSeq[s], seq + 1);
      final long start = 10L * i + rnd.nextInt(20);
      lines.add("T" + i + " s" + s + " w(k" + rnd.nextInt(6) + "," + i + ") @" + start + ".." + (start + 5)
          + (noSeq[s] ? "" : " seq=" + seq));
    }
    for (int i = 1; i < lines.size(); i++) {
      if (rnd.nextInt(6) == 0) {
        final String previous = lines.get(i - 1);
        lines.set(i - 1, lines.get(i));
        lines.set(i, previous);
      }
    }
    return String.join("\n", lines) + "\n";
  }
}
