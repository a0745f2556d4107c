package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A full listing ({@code --max-anomalies}) keeps a counterexample of every violated weak level:
 * the weak check's counterexamples come after the engine's anomalies, so without room kept for
 * them the cap would drop the only proof of a weak level and keep engine anomalies that prove
 * only the stronger levels.
 */
class WeakWitnessListingTest {
  /** Two lost updates (SER, not RA), then a fractured read (RA), in that order. */
  private static final String HISTORY = """
      T1 s1 r(x,0) w(x,1)
      T2 s2 r(x,0) w(x,2)
      T3 s3 r(z,0) w(z,1)
      T4 s4 r(z,0) w(z,2)
      T5 s5 r(a,0) w(a,1) r(b,0) w(b,1)
      T6 s6 r(a,0) r(b,1)
      """;

  private static CheckResult check(final int maxAnomalies) {
    return WholeHistoryCheck.check(HistoryDsl.history(HISTORY), CheckOptions.defaults()
        .withLevels(EnumSet.of(Level.RC, Level.RA, Level.SER)).withMaxAnomalies(maxAnomalies));
  }

  @Test
  void shouldListTheCounterexampleOfAViolatedWeakLevelWhenTheEngineFillsTheListing() {
    // Given: room for one anomaly, which the engine's first lost update would take
    // When
    final CheckResult r = check(1);
    // Then: RA is violated and its counterexample is the one listed; the engine's counts stay
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.RA));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.RC));
    assertEquals(1, r.anomalies().size());
    assertTrue(r.anomalies().get(0).violates().contains(Level.RA), r.anomalies().toString());
    assertTrue(r.stats().anomaliesTruncated());
    assertEquals(2L, r.stats().anomaliesByName().get("LostUpdate"));
  }

  @Test
  void shouldKeepTheEnginesAnomaliesFirstWhenThereIsRoom() {
    // Given: room for all
    // When
    final CheckResult all = check(100);
    final CheckResult two = check(2);
    // Then: the same first anomaly (the engine's), and RA proven in both listings
    assertEquals(all.anomalies().get(0), two.anomalies().get(0));
    assertTrue(proves(all.anomalies(), Level.RA) && proves(two.anomalies(), Level.RA), two.anomalies().toString());
    assertEquals(2, two.anomalies().size());
  }

  private static boolean proves(final List<Anomaly> listed, final Level level) {
    return listed.stream().anyMatch(a -> a.violates().contains(level));
  }
}
