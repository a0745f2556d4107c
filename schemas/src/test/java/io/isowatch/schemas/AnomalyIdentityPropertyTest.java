package io.isowatch.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.schemas.avro.AnomalyRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Property test of the anomaly ids over {@value #COUNT} random histories ({@link RandomHistories},
 * with thin-air, aborted and intermediate reads and every cycle kind): pooling what the batch
 * engine reports, what it reports on the sessions interleaved otherwise and what the online engine
 * reports, two anomalies have equal uniqueIds exactly when their content is equal (everything but
 * the explanation's prose, the source lines and where a cycle is entered), and no result lists one
 * anomaly twice.
 */
class AnomalyIdentityPropertyTest {
  private static final int COUNT = Integer.getInteger("isowatch.identity.count", 4_000);
  private static final long BASE_SEED = Long.getLong("isowatch.identity.seed", 20_261_125L);
  private static final String TENANT = "acme";

  /**
   * What an anomaly is, without its prose and source lines. A cycle entered at another transaction
   * (the engines may enter one cycle at different places) is the same cycle: its transactions and
   * edges are compared as sets (a counterexample cycle passes each transaction once).
   */
  private record Content(String type, String name, Set<Level> violates, Set<TxnContent> txns, Set<Edge> cycle,
      AnomalyRead read) {
    static Content of(final Anomaly a) {
      return new Content(a.type(), a.name(), a.violates(),
          a.transactions().stream().map(TxnContent::of).collect(Collectors.toSet()), Set.copyOf(a.cycle()), a.read());
    }
  }

  private record TxnContent(String id, String session, long seq, Object status, long start, long end, List<Op> ops) {
    static TxnContent of(final Transaction t) {
      return new TxnContent(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops());
    }
  }

  @Test
  void shouldGiveEqualIdsExactlyToEqualAnomaliesWhenCheckingRandomHistories() {
    // Given
    final List<String> failures = new ArrayList<>();
    long pairs = 0;
    long equalPairs = 0;
    long sharedAnomalyIdOnly = 0;
    for (int i = 0; i < COUNT; i++) {
      final long seed = BASE_SEED + i;
      final RandomHistories.Generated g = RandomHistories.generate(seed);
      final List<CheckResult> results;
      try {
        // When
        results = List.of(new Checker(g.options()).check(g.history()),
            new Checker(g.options()).check(RandomHistories.interleaveSessions(g.history(), new Random(seed))),
            OnlineChecker.check(g.history(), g.options()));
      } catch (final RuntimeException e) {
        failures.add("crash " + e + "\n" + g.describe());
        continue;
      }
      // Then
      final List<Anomaly> pooled = new ArrayList<>();
      for (final CheckResult r : results) {
        if (Set.copyOf(r.anomalies().stream().map(Content::of).toList()).size() != r.anomalies().size()) {
          failures.add("one anomaly listed twice: " + r.anomalies() + "\n" + g.describe());
        }
        pooled.addAll(r.anomalies());
      }
      for (int a = 0; a < pooled.size(); a++) {
        for (int b = a + 1; b < pooled.size(); b++) {
          final Anomaly x = pooled.get(a);
          final Anomaly y = pooled.get(b);
          final boolean sameContent = Content.of(x).equals(Content.of(y));
          final boolean sameId = AnomalyRecords.uniqueId(TENANT, x).equals(AnomalyRecords.uniqueId(TENANT, y));
          pairs++;
          equalPairs += sameContent ? 1 : 0;
          if (!sameContent && AnomalyRecords.anomalyId(TENANT, x).equals(AnomalyRecords.anomalyId(TENANT, y))) {
            sharedAnomalyIdOnly++;
          }
          if (sameContent != sameId) {
            failures.add((sameId ? "distinct anomalies share a uniqueId" : "equal anomalies got different uniqueIds")
                + ":\n  " + x + "\n  " + y + "\n" + g.describe());
          }
        }
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " failures");
    // Not vacuous: equal anomalies were compared, and distinct ones that the first id definition
    // could not tell apart.
    final long equal = equalPairs;
    final long shared = sharedAnomalyIdOnly;
    final long all = pairs;
    assertTrue(equal > COUNT / 10, () -> "only " + equal + " equal pairs of " + all);
    assertTrue(shared > 0, () -> "no pair of distinct anomalies shared an anomalyId among " + all);
    System.out.println("AnomalyIdentityPropertyTest: " + all + " pairs, " + equal + " equal, " + shared
        + " distinct with a shared anomalyId");
  }
}
