package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The streams the online blind-write tests share: histories with blind writes or values written
 * twice, arriving shuffled within windows a grace period covers, and the check that a stream's
 * result after a flush equals the whole-history check's.
 */
final class BlindArrivals {
  private BlindArrivals() {}

  /**
   * Round {@code round}'s history of {@code n} transactions: an SER database's blind writes, an SI
   * database's, or a mini-transaction history with values written twice, in turn.
   */
  static History history(final int round, final int n) {
    return switch (round % 3) {
      case 0 -> OnlineBlindWritesBenchmark.rwRegister(n, SimulatedLevel.SER, round);
      case 1 -> OnlineBlindWritesBenchmark.rwRegister(n, SimulatedLevel.SI, round);
      default -> OnlineBlindWritesBenchmark.mtWithRepeats(n);
    };
  }

  /** The history's transactions, each run of 8 shuffled (the last, shorter run as it is). */
  static List<Transaction> shuffledInWindows(final History h, final Random rnd) {
    final List<Transaction> arrival = new ArrayList<>(h.transactions());
    for (int i = 0; i + 8 <= arrival.size(); i += 8) {
      Collections.shuffle(arrival.subList(i, i + 8), rnd);
    }
    return arrival;
  }

  /**
   * Feeds {@code c} the arrival, a result asked after every record, flushes it and asserts its
   * verdicts and reasons are the whole-history check's of {@code h}.
   */
  static void assertFlushedEqualsWhole(final History h, final List<Transaction> arrival, final OnlineChecker c,
      final int round) {
    for (final Transaction t : arrival) {
      c.accept(t);
      c.result();
    }
    c.flush();
    final CheckResult online = c.result();
    final CheckResult whole = OnlineChecker.check(h, CheckOptions.defaults());
    assertEquals(whole.verdicts(), online.verdicts(), () -> "round " + round + ": " + online.reasons());
    assertEquals(whole.reasons(), online.reasons(), "round " + round);
  }
}
