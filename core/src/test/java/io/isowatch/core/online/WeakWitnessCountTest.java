package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The counts of a truncated listing stay exact when a weak level's counterexample is listed: the
 * engine counted an anomaly proving that level but left it out of the listing, so the
 * counterexample listed in its place is the same violation, not one more.
 */
class WeakWitnessCountTest {
  @Test
  void shouldCountOneAnomalyForOneFracturedReadWhenTheListingIsTruncatedBeforeIt() {
    // Given: T2 saw T1's x but not its y (the engine's NonMonotonicRead, which proves RA), and a lost
    // update on z, which the listing of one anomaly takes first
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)
        T2 s2 r(x,1) r(y,0)
        T3 s3 r(z,0) w(z,1)
        T4 s4 r(z,0) w(z,2)
        """);
    final CheckOptions options = CheckOptions.defaults().withInitialValue(0L)
        .withLevels(Set.of(Level.SER, Level.SI, Level.RA));
    // When
    final CheckResult all = OnlineChecker.check(h, options.withMaxAnomalies(10));
    final CheckResult one = OnlineChecker.check(h, options.withMaxAnomalies(1));
    // Then: two anomalies either way; the listing of one shows RA's counterexample (a FracturedRead)
    assertEquals(Map.of("LostUpdate", 1L, "NonMonotonicRead", 1L), all.stats().anomaliesByName());
    assertEquals(all.stats().anomaliesByName(), one.stats().anomaliesByName());
    assertEquals(1, one.anomalies().size());
    assertTrue(one.anomalies().get(0).violates().contains(Level.RA), one.anomalies().toString());
    assertTrue(one.stats().anomaliesTruncated());
  }
}
