package io.isowatch.streams.processor;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.TenantVerdict;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict record of the weak levels (issue 12): every decided level, strongest first. */
class VerdictRecordsTest {
  @Test
  void shouldPublishEveryDecidedLevelStrongestFirstWhenWeakLevelsAreChecked() {
    // Given: a fractured read checked at RC, RA, CC and SER (given weakest first)
    final CheckResult result = OnlineChecker.check(history("""
        T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)
        T2 s2 r(x,0) r(y,1)
        """), CheckOptions.defaults().withLevels(EnumSet.of(Level.RC, Level.RA, Level.CC, Level.SER)));

    // When
    final TenantVerdict verdict = VerdictRecords.toAvro("acme", result, 0, 0, 0, 1L);

    // Then
    assertEquals(List.of("SER=VIOLATED", "CC=VIOLATED", "RA=VIOLATED", "RC=SATISFIED"),
        verdict.getLevels().stream().map(l -> l.getLevel() + "=" + l.getVerdict()).toList());
  }

  @Test
  void shouldMakeEveryConfiguredLevelUnknownWhenAQuarantinedTenantHasNoVerdict() {
    // When: a tenant quarantined with no verdict of its engine, under check.levels RC,RA,SER
    final TenantVerdict verdict = VerdictRecords.quarantined("acme", null, "too big", 1L,
        EnumSet.of(Level.RC, Level.RA, Level.SER));

    // Then: those levels, not SSER, SER and SI
    assertEquals(List.of("SER=UNKNOWN", "RA=UNKNOWN", "RC=UNKNOWN"),
        verdict.getLevels().stream().map(l -> l.getLevel() + "=" + l.getVerdict()).toList());
  }
}
