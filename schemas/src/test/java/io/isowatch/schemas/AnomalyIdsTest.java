package io.isowatch.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.isowatch.schemas.AnomalyIds.CycleEdge;
import io.isowatch.schemas.AnomalyIds.ReadOp;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnomalyIdsTest {
  @Test
  void shouldMatchTheDocumentedDigestWhenGivenKnownInput() {
    // Given: expected values computed outside Java (Python hashlib) from the documented rule.
    // When
    final String named = AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T2", "T1"));
    final String unnamed = AnomalyIds.of("acme", "G1c", null, List.of("T3", "T1", "T2"));
    // Then
    assertEquals("76fde9b8b746dcf21fb06185561f2e3e", named);
    assertEquals("1d40d27c8f490338a668aa566261f7d6", unnamed);
  }

  @Test
  void shouldGiveTheSameIdWhenTheCycleIsEnteredElsewhere() {
    // Given
    final List<String> fromT1 = List.of("T1", "T2", "T3");
    final List<String> fromT3 = List.of("T3", "T1", "T2");
    // When / Then
    assertEquals(
        AnomalyIds.of("acme", "G2-item", "WriteSkew", fromT1),
        AnomalyIds.of("acme", "G2-item", "WriteSkew", fromT3));
  }

  @Test
  void shouldGiveDifferentIdsWhenTenantTypeNameOrTransactionsDiffer() {
    // Given
    final String base = AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1", "T2"));
    // When / Then
    assertNotEquals(base, AnomalyIds.of("other", "G-single", "LostUpdate", List.of("T1", "T2")));
    assertNotEquals(base, AnomalyIds.of("acme", "G0", "LostUpdate", List.of("T1", "T2")));
    assertNotEquals(base, AnomalyIds.of("acme", "G-single", null, List.of("T1", "T2")));
    assertNotEquals(base, AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1", "T3")));
    // The separator keeps concatenations apart: "T1"+"T2" is not "T1T2".
    assertNotEquals(base, AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1T2")));
  }

  private static final List<CycleEdge> LOST_ON_X = List.of(
      new CycleEdge("T1", "T2", "WW", "x", 1L), new CycleEdge("T2", "T1", "RW", "x", 0L));

  @Test
  void shouldMatchTheDocumentedUniqueDigestWhenGivenKnownInput() {
    // Given: expected values computed outside Java (Python hashlib and struct) from the rule in
    // schemas/README.md, "Anomaly ids".
    // When
    final String lost = AnomalyIds.unique("acme", "G-single", "LostUpdate", List.of("T2", "T1"), LOST_ON_X, null);
    final String thinAir = AnomalyIds.unique("acme", "thin-air", "ThinAirRead", List.of("T1"), List.of(),
        new ReadOp("T1", 1, "y", 7L));
    final String absent = AnomalyIds.unique("acme", "thin-air", "ThinAirRead", List.of("T1"), List.of(),
        new ReadOp("T1", 0, "x", null));
    // Then
    assertEquals("fde025cfbcc9601a501e73933d522785", lost);
    assertEquals("99c38b7f2cc8663e7a3f6e29e08d330e", thinAir);
    assertEquals("e64f4f19a1d59bf305b2f6f663afb2f6", absent);
  }

  @Test
  void shouldGiveTheSameUniqueIdWhenTheCycleIsEnteredElsewhere() {
    // Given: one cycle, entered at T1 and at T2
    final List<CycleEdge> fromT2 = List.of(LOST_ON_X.get(1), LOST_ON_X.get(0));
    // When / Then
    assertEquals(AnomalyIds.unique("acme", "G-single", "LostUpdate", List.of("T1", "T2"), LOST_ON_X, null),
        AnomalyIds.unique("acme", "G-single", "LostUpdate", List.of("T2", "T1"), fromT2, null));
  }

  @Test
  void shouldGiveDifferentUniqueIdsWhenOnlyTheKeyOrValueOrReadDiffers() {
    // Given: the two lost updates of one pair on x and y, and two thin-air reads of one transaction,
    // which share their anomalyId
    final List<CycleEdge> lostOnY = List.of(
        new CycleEdge("T1", "T2", "WW", "y", 1L), new CycleEdge("T2", "T1", "RW", "y", 0L));
    final ReadOp x = new ReadOp("T1", 0, "x", 5L);
    // When
    final String onX = AnomalyIds.unique("acme", "G-single", "LostUpdate", List.of("T1", "T2"), LOST_ON_X, null);
    final String onY = AnomalyIds.unique("acme", "G-single", "LostUpdate", List.of("T1", "T2"), lostOnY, null);
    // Then: every part of an edge or read counts
    assertNotEquals(onX, onY);
    final String readX = AnomalyIds.unique("acme", "thin-air", "ThinAirRead", List.of("T1"), List.of(), x);
    for (final ReadOp other : List.of(new ReadOp("T1", 1, "x", 5L), new ReadOp("T1", 0, "y", 5L),
        new ReadOp("T1", 0, "x", 6L), new ReadOp("T1", 0, "x", null), new ReadOp("T2", 0, "x", 5L))) {
      assertNotEquals(readX, AnomalyIds.unique("acme", "thin-air", "ThinAirRead", List.of("T1"), List.of(), other),
          other.toString());
    }
    assertNotEquals(readX, AnomalyIds.unique("acme", "thin-air", "ThinAirRead", List.of("T1"), List.of(), null));
    for (final CycleEdge other : List.of(new CycleEdge("T1", "T2", "WR", "x", 1L),
        new CycleEdge("T1", "T2", "WW", "x", 2L), new CycleEdge("T1", "T2", "WW", "x", null),
        new CycleEdge("T1", "T2", "WW", null, 1L), new CycleEdge("T1", "T3", "WW", "x", 1L))) {
      assertNotEquals(onX, AnomalyIds.unique("acme", "G-single", "LostUpdate", List.of("T1", "T2"),
          List.of(other, LOST_ON_X.get(1)), null), other.toString());
    }
    assertEquals(AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1", "T2")),
        AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T2", "T1")), "the old id cannot tell them apart");
  }

  @Test
  void shouldKeepFieldsApartWhenTheirTextsConcatenateAlike() {
    // Given: inputs whose concatenated texts are equal, which only the length prefixes tell apart
    // When / Then
    assertNotEquals(AnomalyIds.unique("ab", "c", null, List.of("T1"), List.of(), null),
        AnomalyIds.unique("a", "bc", null, List.of("T1"), List.of(), null));
    assertNotEquals(AnomalyIds.unique("acme", "G0", null, List.of("T1", "T2"), List.of(), null),
        AnomalyIds.unique("acme", "G0", null, List.of("T1T2"), List.of(), null));
    assertNotEquals(AnomalyIds.unique("acme", "G0", null, List.of("T1"), List.of(), null),
        AnomalyIds.unique("acme", "G0", "", List.of("T1"), List.of(), null));
  }

  @Test
  void shouldRecomputeTheRecordsUniqueIdAndPreferItWhenDeduplicating() {
    // Given: a published record with and without its uniqueId (a record of an older checker)
    final Anomaly record = Anomaly.newBuilder().setTenant("acme").setAnomalyId("old").setType("thin-air")
        .setName("ThinAirRead").setViolates(List.of(Level.SSER, Level.SER, Level.SI)).setCycle(List.of())
        .setTransactions(List.of(AnomalyTransaction.newBuilder().setTxn("T1").setSession("s1")
            .setStatus(TxnStatus.COMMITTED).setOps(List.of()).build()))
        .setExplanation("…").setDetectedAtMicros(1L)
        .setRead(AnomalyRead.newBuilder().setTxn("T1").setOp(1).setKey("y").setValue(7L).build()).build();
    // When
    final String recomputed = AnomalyIds.unique(record);
    // Then
    assertEquals("99c38b7f2cc8663e7a3f6e29e08d330e", recomputed);
    assertEquals("old", AnomalyIds.identity(record));
    record.setUniqueId(recomputed);
    assertEquals(recomputed, AnomalyIds.identity(record));
  }
}
