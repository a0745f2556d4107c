package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A violation of MIXED that no single cycle shows is explained as the case split it is: why the
 * cases cover every commit order (the read any other order breaks), then each case with the cycle
 * that closes it, and the readers one of whose promises breaks whichever case holds.
 */
class MixedSplitExplanationTest {

  @Test
  void shouldWriteOutWhyTheCasesCoverEveryOrderAndTheCycleOfEachCase() {
    // Given: two SI transactions both update z from its initial value (a lost update); T2 also
    // writes x blindly, so the version orders are not WR's and the general check searches
    final History h = HistoryDsl.history("""
        T2 s1 r(z,0) w(z,2) w(x,3)
        T1 s2 r(z,0) w(z,1)
        """);
    final Map<String, Level> declared = Map.of("T1", Level.SI, "T2", Level.SI);

    // When
    final MixedLevelCheck.Result r = new MixedLevelCheck(MixedForkSearchTest.entries(h), 0L, false, true,
        t -> declared.get(t.id())).decide(EnumSet.of(Level.MIXED));

    // Then: VIOLATED by a split of two cases, each closing a cycle, every claim true of the history
    assertEquals(Verdict.VIOLATED, r.verdict(), r.unknownReason());
    final Anomaly a = r.witness();
    final String text = a.explanation();
    assertTrue(text.contains("Every commit order takes one of these 2 cases: in any other, "), text);
    assertTrue(text.contains("would have SI order "), text);
    assertTrue(text.contains("\n1. if ") && text.contains("\n2. if ") && text.contains(", this closes a cycle:"), text);
    assertTrue(text.contains("whichever case holds, the promise of one of "), text);
    assertNotNull(a.read(), text);
    assertEquals(List.of(), MixedForkCoreTest.checkClaims(a, h, declared), text);
  }
}
