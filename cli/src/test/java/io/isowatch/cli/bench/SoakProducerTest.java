package io.isowatch.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.online.Horizon;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineOptions;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The soak's producer at a small scale, without a broker: the injections land where item 8 says,
 * and the segmented engine fed the produced stream the way the streaming checker is (grace, a
 * horizon, no final flush) publishes exactly what the producer expects: the expectations hold
 * for the checker's semantics, and the tail lets the last injection's reads be decided.
 */
class SoakProducerTest {
  private static final long TARGET = 30_000;
  private static final long GRACE_MS = 100;

  @Test
  void shouldInjectEveryKindAtEveryPointAndExpectWhatTheSegmentedEnginePublishes() {
    // Given:
    final MockProducer<String, TransactionEvent> kafka =
        new MockProducer<>(true, null, new StringSerializer(), (topic, value) -> new byte[0]);
    final SoakProducer producer = new SoakProducer(kafka, "in", "soak", TARGET, Long.MAX_VALUE / 2, 0,
        SoakInjections.fractions(SoakInjections.DEFAULT_AT), SoakInjections.kinds(SoakInjections.DEFAULT_KINDS),
        GRACE_MS).minStepMicros(50);

    // When:
    producer.run();

    // Then: the target exactly, one batch of the four kinds at each point
    assertEquals(null, producer.failure());
    final List<TransactionEvent> sent = kafka.history().stream().map(ProducerRecord::value).toList();
    assertEquals(TARGET, sent.size());
    for (final String point : List.of("10", "50", "99.9")) {
      final int at = (int) Math.floor(Double.parseDouble(point) / 100 * TARGET);
      assertEquals(List.of("p" + point + "-LostUpdate-inj1-a-0", "p" + point + "-LostUpdate-inj1-b-0",
              "p" + point + "-ThinAirRead-inj1-a-0", "p" + point + "-WriteSkew-inj1-a-0",
              "p" + point + "-WriteSkew-inj1-b-0", "p" + point + "-StaleRead-r-0"),
          sent.subList(at, at + 6).stream().map(TransactionEvent::getTxn).toList());
    }
    final List<SoakCheck.Expected> expected = producer.expected();
    assertEquals(12, expected.size());

    // Then: the engine, fed as the topology feeds it and never flushed, publishes exactly that
    final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults(),
        OnlineOptions.streaming(GRACE_MS * 1_000).withHorizon(Horizon.ofTransactions(1_000)));
    sent.forEach(e -> engine.accept(TransactionEvents.toCore(e)));
    final CheckResult r = engine.result();
    final List<SoakCheck.PublishedAnomaly> anomalies = new ArrayList<>();
    for (final Anomaly a : r.anomalies()) {
      anomalies.add(new SoakCheck.PublishedAnomaly(a.displayName() + a.txnIds(), a.displayName(), a.txnIds(), false));
    }
    final List<SoakCheck.PublishedFinding> findings = r.findings().stream()
        .map(f -> new SoakCheck.PublishedFinding(f.kind().name(), f.key(), f.count(), f.txns())).toList();
    final SoakCheck.Outcome o = SoakCheck.compare(expected, anomalies, findings, Set.of("HORIZON_PRUNED"), true);
    assertTrue(o.pass(), o.markdown());
  }
}
