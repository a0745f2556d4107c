package io.isowatch.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.cli.bench.SoakCheck.Expected;
import io.isowatch.cli.bench.SoakCheck.Outcome;
import io.isowatch.cli.bench.SoakCheck.PublishedAnomaly;
import io.isowatch.cli.bench.SoakCheck.PublishedFinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The soak's final comparison: it passes only on exactly the injected anomalies, each once, under its name. */
class SoakCheckTest {
  private static final Set<String> TOLERATED = Set.of("HORIZON_PRUNED");

  private static final List<Expected> EXPECTED = List.of(
      new Expected("LostUpdate at 10%", "LostUpdate", List.of("p1-a-0", "p1-b-0"), null, null),
      new Expected("ThinAirRead at 99.9%", "ThinAirRead", List.of("p3-a-0"), null, null),
      new Expected("StaleRead at 50%", "StaleReadBeyondHorizon", List.of("p2-r-0"), "STALE_READ_BEYOND_HORIZON",
          "k7"));

  private static List<PublishedAnomaly> allPublished() {
    return new ArrayList<>(List.of(
        new PublishedAnomaly("id1", "LostUpdate", List.of("p1-b-0", "p1-a-0"), false),
        new PublishedAnomaly("id2", "ThinAirRead", List.of("p3-a-0"), false),
        new PublishedAnomaly("id3", "StaleReadBeyondHorizon", List.of("p2-r-0"), false)));
  }

  private static List<PublishedFinding> allFindings() {
    return new ArrayList<>(List.of(
        new PublishedFinding("STALE_READ_BEYOND_HORIZON", "k7", 1, List.of("p2-r-0")),
        new PublishedFinding("HORIZON_PRUNED", null, 1_000_000, List.of())));
  }

  private static Outcome compare(final List<PublishedAnomaly> anomalies, final List<PublishedFinding> findings) {
    return SoakCheck.compare(EXPECTED, anomalies, findings, TOLERATED, true);
  }

  @Test
  void shouldPassWhenEachInjectedAnomalyIsPublishedOnceUnderItsNameAndOnlyToleratedFindingsRemain() {
    // When:
    final Outcome o = compare(allPublished(), allFindings());

    // Then:
    assertTrue(o.pass(), o.markdown());
    assertEquals(5, o.rows().size(), o.markdown());
    assertTrue(o.markdown().endsWith("PASS: 5 of 5 rows ok"), o.markdown());
  }

  @Test
  void shouldFailWhenAnInjectedAnomalyIsMissing() {
    // Given:
    final List<PublishedAnomaly> published = allPublished();
    published.remove(0);

    // When:
    final Outcome o = compare(published, allFindings());

    // Then:
    assertFalse(o.pass());
    assertEquals(new SoakCheck.Row("LostUpdate at 10%: LostUpdate [p1-a-0, p1-b-0]", "none", 0, false),
        o.rows().get(0));
  }

  @Test
  void shouldFailWhenAnInjectedAnomalyIsPublishedTwice() {
    // Given:
    final List<PublishedAnomaly> published = allPublished();
    published.add(new PublishedAnomaly("id1", "LostUpdate", List.of("p1-a-0", "p1-b-0"), false));

    // When:
    final Outcome o = compare(published, allFindings());

    // Then:
    assertFalse(o.pass());
    assertEquals(2, o.rows().get(0).count());
    assertFalse(o.rows().get(0).ok());
  }

  @Test
  void shouldFailWhenAThinAirReadIsPublishedAsAStaleRead() {
    // Given: the degraded filters' misnaming, with its finding
    final List<PublishedAnomaly> published = allPublished();
    published.set(1, new PublishedAnomaly("id2", "StaleReadBeyondHorizon", List.of("p3-a-0"), false));
    final List<PublishedFinding> findings = allFindings();
    findings.add(new PublishedFinding("STALE_READ_BEYOND_HORIZON", "p3-inj1-x", 1, List.of("p3-a-0")));

    // When:
    final Outcome o = compare(published, findings);

    // Then:
    assertFalse(o.pass());
    assertEquals(new SoakCheck.Row("ThinAirRead at 99.9%: ThinAirRead [p3-a-0]", "StaleReadBeyondHorizon", 1, false),
        o.rows().get(1));
    assertTrue(o.rows().stream().anyMatch(r -> !r.ok() && r.published().startsWith("STALE_READ_BEYOND_HORIZON on p3")),
        o.markdown());
  }

  @Test
  void shouldFailOnAnAnomalyNobodyInjected() {
    // Given: a false alarm from the background
    final List<PublishedAnomaly> published = allPublished();
    published.add(new PublishedAnomaly("id9", "WriteSkew", List.of("s1-5", "s2-9"), false));

    // When:
    final Outcome o = compare(published, allFindings());

    // Then:
    assertFalse(o.pass());
    assertTrue(o.rows().contains(new SoakCheck.Row("nothing else", "WriteSkew [s1-5, s2-9]", 1, false)), o.markdown());
  }

  @Test
  void shouldFailWhenAnInjectedAnomalyIsRetracted() {
    // Given:
    final List<PublishedAnomaly> published = allPublished();
    published.add(new PublishedAnomaly("id2", "ThinAirRead", List.of("p3-a-0"), true));

    // When:
    final Outcome o = compare(published, allFindings());

    // Then:
    assertFalse(o.pass());
    assertEquals("ThinAirRead (retracted 1x)", o.rows().get(1).published());
  }

  @Test
  void shouldFailWhenTheStaleReadsFindingIsMissingOrAnUntoleratedFindingAppears() {
    // Given:
    final List<PublishedFinding> withoutStale = allFindings();
    withoutStale.remove(0);
    final List<PublishedFinding> withSaturated = allFindings();
    withSaturated.add(new PublishedFinding("RETIRED_FILTER_SATURATED", null, 1, List.of()));

    // When:
    final Outcome missing = compare(allPublished(), withoutStale);
    final Outcome extra = compare(allPublished(), withSaturated);

    // Then:
    assertFalse(missing.pass());
    assertFalse(missing.rows().get(3).ok(), missing.markdown());
    assertFalse(extra.pass());
  }

  @Test
  void shouldFailWithoutAFinalVerdict() {
    // When:
    final Outcome o = SoakCheck.compare(EXPECTED, allPublished(), List.of(), TOLERATED, false);

    // Then:
    assertFalse(o.pass());
    assertEquals("none read", o.rows().get(o.rows().size() - 1).published());
  }
}
