package io.isowatch.streams.ui;

import static io.isowatch.streams.ui.UiFixtures.simple;
import static io.isowatch.streams.ui.UiFixtures.verdict;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Level;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UiStateTest {
  @Test
  void shouldKeepTheNewestAnomaliesOnceEachWhenMoreArriveThanItHolds() {
    // Given
    final UiState state = new UiState(3);

    // When: five anomalies, one of them published twice.
    for (int i = 1; i <= 5; i++) {
      state.onAnomaly(simple("acme", "id-" + i, "G-single", "LostUpdate", List.of(Level.SER), i));
    }
    state.onAnomaly(simple("acme", "id-5", "G-single", "LostUpdate", List.of(Level.SER), 5));

    // Then: the three newest, newest first; counts without the duplicate.
    assertEquals(List.of("id-5", "id-4", "id-3"),
        state.anomalies(UiState.Filter.none(), 10).stream().map(Anomaly::getAnomalyId).toList());
    assertEquals(5, state.anomaliesReceived());
    assertTrue(state.anomaly("id-1").isEmpty());
    assertEquals(5, state.tenants().get(0).anomaliesSeen());
    assertEquals(5, state.tenants().get(0).latency().size());
  }

  @Test
  void shouldFilterByTypeOrNameLevelAndTenantWhenAsked() {
    // Given
    final UiState state = new UiState(100);
    state.onAnomaly(simple("acme", "a", "G-single", "LostUpdate", List.of(Level.SSER, Level.SER, Level.SI), 1));
    state.onAnomaly(simple("acme", "b", "G2-item", "WriteSkew", List.of(Level.SSER, Level.SER), 2));
    state.onAnomaly(simple("zeta", "c", "G-single", null, List.of(Level.SER), 3));

    // When / Then
    assertEquals(List.of("c", "a"), ids(state, new UiState.Filter(Optional.of("G-single"), Optional.empty(),
        Optional.empty())));
    assertEquals(List.of("b"), ids(state, new UiState.Filter(Optional.of("WriteSkew"), Optional.empty(),
        Optional.empty())));
    assertEquals(List.of("a"), ids(state, new UiState.Filter(Optional.empty(), Optional.of(Level.SI),
        Optional.empty())));
    assertEquals(List.of("b", "a"), ids(state, new UiState.Filter(Optional.empty(), Optional.of(Level.SSER),
        Optional.of("acme"))));
    assertEquals(1, state.count(new UiState.Filter(Optional.empty(), Optional.empty(), Optional.of("zeta"))));
    final UiState.Facets facets = state.facets();
    assertEquals(List.of("LostUpdate", "WriteSkew", "G-single", "G2-item"), facets.types());
    assertEquals(List.of("acme", "zeta"), facets.tenants());
    assertEquals(List.of(Level.SI, Level.SER, Level.SSER), facets.levels());
  }

  @Test
  void shouldListTheWeakLevelsWeakestFirstAndFilterByThemWhenAnomaliesViolateThem() {
    // Given: a FracturedRead (RA and stronger), a NonMonotonicRead (RC and stronger), and a
    // level newer than this UI, read as OTHER
    final UiState state = new UiState(100);
    state.onAnomaly(simple("pg", "f", "G-single", "FracturedRead",
        List.of(Level.SSER, Level.SER, Level.SI, Level.PC, Level.CC, Level.RA), 1));
    state.onAnomaly(simple("pg", "n", "G-single", "NonMonotonicRead",
        List.of(Level.SSER, Level.SER, Level.RR, Level.SI, Level.RA, Level.RC, Level.OTHER), 2));

    // When
    final UiState.Facets facets = state.facets();

    // Then: the hierarchy's order, weakest first as the text and JSON reports list them, not the
    // order the symbols were added in; OTHER last
    assertEquals(List.of(Level.RC, Level.RA, Level.CC, Level.PC, Level.SI, Level.RR, Level.SER, Level.SSER,
        Level.OTHER), facets.levels());
    assertEquals(List.of("n"), ids(state, new UiState.Filter(Optional.empty(), Optional.of(Level.RC),
        Optional.empty())));
    assertEquals(List.of("n", "f"), ids(state, new UiState.Filter(Optional.empty(), Optional.of(Level.RA),
        Optional.empty())));
  }

  @Test
  void shouldDeriveThroughputFromConsecutiveVerdictsAndIgnoreReplayedOnesWhenVerdictsArrive() {
    // Given
    final UiState state = new UiState(10);

    // When: 1,000 then 3,000 transactions checked two seconds apart, then an older verdict replayed.
    state.onVerdict(verdict("acme", 10_000_000L, 1_000));
    state.onVerdict(verdict("acme", 12_000_000L, 3_000));
    state.onVerdict(verdict("acme", 11_000_000L, 2_000));

    // Then
    final UiState.TenantView t = state.tenants().get(0);
    assertEquals(List.of(new UiState.ThroughputPoint(12_000_000L, 1_000.0)), t.throughput());
    assertEquals(3_000, t.verdict().orElseThrow().getCounts().getTransactionsChecked());
  }

  private static List<String> ids(final UiState state, final UiState.Filter filter) {
    return state.anomalies(filter, 100).stream().map(Anomaly::getAnomalyId).toList();
  }
}
