package io.isowatch.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.TxnStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnomalyLinesTest {
  private static final AnomalyLines LINES = new AnomalyLines(
      Map.of("h2-snapshot", DemoTenant.h2Canary(), "faulty", DemoTenant.faulty("all=0.001")), "http://127.0.0.1:9464");

  private static Anomaly anomaly(final String tenant, final String name, final List<Level> violates,
      final String explanation) {
    return Anomaly.newBuilder().setTenant(tenant).setAnomalyId("id/1").setType("G-single").setName(name)
        .setViolates(violates).setCycle(List.of())
        .setTransactions(List.of(AnomalyTransaction.newBuilder().setTxn("T1").setSession("s1")
            .setStatus(TxnStatus.COMMITTED).setOps(List.of()).build()))
        .setExplanation(explanation).setDetectedAtMicros(1_000_000L).setDetectionLatencyMicros(1_500_000L).build();
  }

  @Test
  void shouldMarkABrokenPromiseAndLinkTheUiPageWhenTheTenantPromisesAViolatedLevel() {
    // Given
    final Anomaly a = anomaly("faulty", "LostUpdate", List.of(Level.SSER, Level.SER, Level.SI), "Let:\nT1 = …\nThen:\nT1 < T1");

    // When
    final List<String> lines = LINES.format(a);

    // Then
    assertTrue(lines.get(0).contains("faulty"), lines.get(0));
    assertTrue(lines.get(0).contains("LostUpdate (G-single)"), lines.get(0));
    assertTrue(lines.get(0).contains("violates SSER,SER,SI"), lines.get(0));
    assertTrue(lines.get(0).contains("detected 1.5 s after its last commit"), lines.get(0));
    assertTrue(lines.get(0).endsWith("BREAKS ITS PROMISE (SSER,SER,SI)"), lines.get(0));
    assertEquals("    transactions: T1 (s1, committed)", lines.get(1));
    assertEquals(List.of("    Let:", "    T1 = …", "    Then:", "    T1 < T1"), lines.subList(2, 6));
    assertEquals("    http://127.0.0.1:9464/anomaly.html?id=id%2F1", lines.get(6));
  }

  @Test
  void shouldSayAllowedWhenTheTenantPromisesOnlyLevelsTheAnomalyKeeps() {
    // Given: write skew violates SSER and SER; H2 at SNAPSHOT promises SI only
    final Anomaly a = anomaly("h2-snapshot", "WriteSkew", List.of(Level.SSER, Level.SER), "x");

    // When
    final String headline = LINES.format(a).get(0);

    // Then
    assertTrue(headline.endsWith("weaker than SER but allowed by its promise (h2:snapshot = SI)"), headline);
  }

  @Test
  void shouldCallTheSameLostUpdateBrokenUnderRepeatableReadAndAllowedUnderReadCommittedWhenProfilesDiffer() {
    // Given: the demo's two profile tenants and one lost update each
    final AnomalyLines lines = new AnomalyLines(Map.of(
        "pg-rr-sim", DemoTenant.lostUpdates("pg-rr-sim", "postgres:repeatable-read", "0.01"),
        "pg-rc-sim", DemoTenant.lostUpdates("pg-rc-sim", "postgres:read-committed", "0.01")), null);
    final List<Level> violates = List.of(Level.SSER, Level.SER, Level.SI);
    // When
    final String rr = lines.format(anomaly("pg-rr-sim", "LostUpdate", violates, "x")).get(0);
    final String rc = lines.format(anomaly("pg-rc-sim", "LostUpdate", violates, "x")).get(0);
    // Then
    assertTrue(rr.endsWith("BREAKS ITS PROMISE (postgres:repeatable-read = SI)"), rr);
    assertTrue(rc.endsWith("weaker than SI but allowed by its promise (postgres:read-committed = RC)"), rc);
  }

  @Test
  void shouldConfigureTheCheckerWithEachTenantsPromiseWhenTheDemoStarts() {
    // When
    final Map<String, String> settings = DemoCommand.promiseSettings(List.of(DemoTenant.h2Canary(),
        DemoTenant.faulty("all=0.001"), DemoTenant.lostUpdates("pg-rc-sim", "postgres:read-committed", "0.01")));
    // Then
    assertEquals("h2-snapshot=h2:snapshot,pg-rc-sim=postgres:read-committed", settings.get("tenant.promises"));
    assertEquals("faulty:SI,faulty:SER,faulty:SSER", settings.get("tenant.promised.levels"));
    // Every promised level is decided (the faulty store's SSER promises every level but MIXED).
    assertEquals("PL2,RC,RA,CC,PC,SI,RR,SER,SSER", settings.get("check.levels"));
  }

  @Test
  void shouldCheckEachProfileTenantsPromisedLevelsWhenTheDemoStarts() {
    // When: read committed alone
    final Map<String, String> settings = DemoCommand.promiseSettings(
        List.of(DemoTenant.lostUpdates("pg-rc-sim", "postgres:read-committed", "0.01")));
    // Then: its RC (and PL2) is decided, not only the default SSER, SER, SI
    assertTrue(settings.get("check.levels").startsWith("PL2,RC,"), settings.get("check.levels"));
    assertTrue(settings.get("check.levels").endsWith("SI,SER,SSER"), settings.get("check.levels"));
  }

  @Test
  void shouldCutLongExplanationsAndSayHowManyLinesAreOnThePage() {
    // Given
    final String explanation = String.join("\n", java.util.Collections.nCopies(AnomalyLines.EXPLANATION_LINES + 3, "line"));

    // When
    final List<String> lines = LINES.format(anomaly("faulty", "G2-item", List.of(Level.SER), explanation));

    // Then
    assertTrue(lines.contains("    … (3 more lines on the anomaly's page)"), String.join("\n", lines));
  }
}
