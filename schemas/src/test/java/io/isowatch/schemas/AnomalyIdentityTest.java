package io.isowatch.schemas;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.avro.AnomalyRecords;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Anomalies that share their transactions but differ in what they are about (keys, edges, the read)
 * are listed apart by both engines, each with what tells it apart (its cycle or its read), and get
 * distinct uniqueIds, where the first definition of the id (tenant, type, name, transactions) gives
 * them one.
 */
class AnomalyIdentityTest {
  private static final String TENANT = "acme";
  /** The lost updates of one pair of transactions on two keys. */
  static final String TWO_KEY_LOST_UPDATE = """
      T1 s1 r(x,0) r(y,0) w(x,1) w(y,1) @10..20
      T2 s2 r(x,0) r(y,0) w(x,2) w(y,2) @15..30
      """;
  /** Two thin-air reads of one transaction. */
  static final String TWO_THIN_AIR_READS = "T1 s1 r(x,5) r(y,7) @10..20\n";
  private static final List<Function<History, CheckResult>> ENGINES = List.of(
      h -> new Checker(CheckOptions.defaults()).check(h),
      h -> OnlineChecker.check(h, CheckOptions.defaults()));

  @Test
  void shouldListBothLostUpdatesWithDistinctIdsWhenOnePairOverwritesTwoKeys() {
    for (final Function<History, CheckResult> engine : ENGINES) {
      // When
      final List<Anomaly> found = engine.apply(history(TWO_KEY_LOST_UPDATE)).anomalies();
      // Then: one per key, each cycle on its key
      assertEquals(List.of("LostUpdate", "LostUpdate"), found.stream().map(Anomaly::displayName).toList());
      assertEquals(Set.of("x", "y"), found.stream().map(a -> a.cycle().get(0).key()).collect(Collectors.toSet()));
      assertDistinctUniqueIdsWhereAnomalyIdsCollide(found);
    }
  }

  @Test
  void shouldListBothThinAirReadsWithDistinctIdsWhenOneTransactionReadsTwoUnwrittenValues() {
    for (final Function<History, CheckResult> engine : ENGINES) {
      // When
      final List<Anomaly> found = engine.apply(history(TWO_THIN_AIR_READS)).anomalies();
      // Then
      assertEquals(List.of(new AnomalyRead("T1", 0, "x", 5L), new AnomalyRead("T1", 1, "y", 7L)),
          found.stream().map(Anomaly::read).toList());
      assertEquals(Set.of("ThinAirRead"), found.stream().map(Anomaly::displayName).collect(Collectors.toSet()));
      assertDistinctUniqueIdsWhereAnomalyIdsCollide(found);
    }
  }

  @Test
  void shouldListBothAbortedReadsWithDistinctIdsWhenOneReaderReadsTwoKeysOfOneAbortedWriter() {
    for (final Function<History, CheckResult> engine : ENGINES) {
      // When
      final List<Anomaly> found = engine.apply(history("""
          T1 s1 w(x,1) w(y,1) aborted @10..20
          T2 s2 r(x,1) r(y,1) @30..40
          """)).anomalies();
      // Then
      assertEquals(List.of(new AnomalyRead("T2", 0, "x", 1L), new AnomalyRead("T2", 1, "y", 1L)),
          found.stream().map(Anomaly::read).toList());
      assertDistinctUniqueIdsWhereAnomalyIdsCollide(found);
    }
  }

  @Test
  void shouldListBothFaultyReadsWithDistinctIdsWhenTheyDifferOnlyInTheirPosition() {
    for (final Function<History, CheckResult> engine : ENGINES) {
      // When: the same wrong value read twice after the transaction's own write
      final List<Anomaly> found = engine.apply(history("T1 s1 w(x,1) r(x,2) r(x,2) @10..20\n")).anomalies();
      // Then: the same type, name, transactions and explanation; only the op tells them apart
      assertEquals(List.of(new AnomalyRead("T1", 1, "x", 2L), new AnomalyRead("T1", 2, "x", 2L)),
          found.stream().map(Anomaly::read).toList());
      assertEquals(found.get(0).explanation(), found.get(1).explanation());
      assertDistinctUniqueIdsWhereAnomalyIdsCollide(found);
    }
  }

  @Test
  void shouldGiveTheSameIdsWhenBothEnginesCheckTheSameHistory() {
    for (final String h : List.of(TWO_KEY_LOST_UPDATE, TWO_THIN_AIR_READS)) {
      // When
      final List<List<String>> ids = ENGINES.stream()
          .map(e -> e.apply(history(h)).anomalies().stream().map(a -> AnomalyRecords.uniqueId(TENANT, a)).sorted().toList())
          .toList();
      // Then
      assertEquals(ids.get(0), ids.get(1), h);
    }
  }

  private static void assertDistinctUniqueIdsWhereAnomalyIdsCollide(final List<Anomaly> found) {
    assertEquals(2, found.size(), found.toString());
    assertEquals(AnomalyRecords.anomalyId(TENANT, found.get(0)), AnomalyRecords.anomalyId(TENANT, found.get(1)),
        "the first definition of the id gives them one");
    assertNotEquals(AnomalyRecords.uniqueId(TENANT, found.get(0)), AnomalyRecords.uniqueId(TENANT, found.get(1)));
  }
}
