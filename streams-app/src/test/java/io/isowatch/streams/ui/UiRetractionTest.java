package io.isowatch.streams.ui;

import static io.isowatch.streams.ui.UiFixtures.simple;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyRetraction;
import io.isowatch.schemas.Level;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A retraction on the anomalies topic (docs/streaming.md, "No false positive from time") in the UI's view model. */
class UiRetractionTest {
  @Test
  void shouldMarkTheAnomalyRetractedInPlaceAndStopCountingItWhenItsRetractionArrives() {
    // Given: two anomalies of one tenant
    final UiState state = new UiState(10);
    state.onAnomaly(simple("acme", "thin", "thin-air", "ThinAirRead", List.of(Level.SSER, Level.SER, Level.SI), 1));
    state.onAnomaly(simple("acme", "lu", "G-single", "LostUpdate", List.of(Level.SER), 2));

    // When: the first one's retraction arrives (twice, as an at-least-once republication would)
    final Anomaly retraction = Anomaly.newBuilder(state.anomaly("thin").orElseThrow())
        .setRetraction(new AnomalyRetraction(99L, "W", "W wrote the value")).build();
    state.onAnomaly(retraction);
    state.onAnomaly(retraction);

    // Then: still in the feed at its place, marked retracted; the tenant counts only the other one
    assertEquals(List.of("lu", "thin"),
        state.anomalies(UiState.Filter.none(), 10).stream().map(Anomaly::getAnomalyId).toList());
    assertNotNull(state.anomaly("thin").orElseThrow().getRetraction());
    assertEquals("W", state.anomaly("thin").orElseThrow().getRetraction().getCauseTxn());
    assertNull(state.anomaly("lu").orElseThrow().getRetraction());
    assertEquals(1, state.tenants().get(0).anomaliesSeen());
    assertEquals(2, state.anomaliesReceived());
  }
}
