package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.ListAppendHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming list-append checker's counts of anomalies per name match the anomalies it lists
 * (when the listing is not truncated): at every point of a stream of random list-append histories
 * arriving shuffled, and after the flush. {@code -Dseed=3 -Dhistories=2000} by hand.
 */
class ListAppendOnlineCountsTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults()
      .withLevels(java.util.EnumSet.of(Level.SSER, Level.SER, Level.SI, Level.RR, Level.PL2, Level.RC));

  @Test
  void shouldCountEveryListedAnomalyOnceAtEveryPointOfAStream() {
    final long seed = Long.getLong("seed", 9);
    final Random random = new Random(seed);
    int withAnomalies = 0;
    for (int n = 0; n < Integer.getInteger("histories", 300); n++) {
      final History h = ListAppendHistories.random(random);
      final List<Transaction> shuffled = new ArrayList<>(h.transactions());
      Collections.shuffle(shuffled, random);
      final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
      for (final Transaction t : shuffled) {
        online.accept(t);
        assertCounted(online.result(), "seed " + seed + " history " + n + " after " + t.id() + "\n" + HistoryDsl.format(h));
      }
      online.flush();
      final CheckResult r = online.result();
      assertCounted(r, "seed " + seed + " history " + n + " flushed\n" + HistoryDsl.format(h));
      withAnomalies += r.anomalies().isEmpty() ? 0 : 1;
    }
    assertTrue(withAnomalies > 30, withAnomalies + " histories with anomalies");
  }

  private static void assertCounted(final CheckResult r, final String context) {
    if (r.stats().anomaliesTruncated()) {
      return;
    }
    final Map<String, Long> listed = new HashMap<>();
    for (final Anomaly a : r.anomalies()) {
      listed.merge(a.displayName(), 1L, Long::sum);
    }
    final Map<String, Long> counted = new HashMap<>(r.stats().anomaliesByName());
    counted.values().removeIf(v -> v == 0);
    assertEquals(listed, counted, context + r.anomalies());
  }
}
