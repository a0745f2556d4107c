package io.isowatch.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
}
