package io.isowatch.streams.processor;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Stores;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CheckTransactionsProcessor} alone, with a {@link MockProcessorContext}, real RocksDB stores
 * (not logged) and punctuators fired by hand; no registry involved.
 */
class CheckTransactionsProcessorTest {
  private static final long T0 = 1_000_000L;
  private static final Duration IDLE = Duration.ofSeconds(10);

  @TempDir Path stateDir;

  private MockProcessorContext<String, SpecificRecord> context;
  private CheckTransactionsProcessor processor;
  private KeyValueStore<TenantKey, Long> published;
  private MockStores stores;
  private final CheckerMetrics metrics = new CheckerMetrics();

  @BeforeEach
  void setUp() {
    stores = MockStores.forCheckProcessor(stateDir, T0, Map.of());
    context = stores.context();
    published = context.getStateStore(Stores.PUBLISHED_ANOMALIES);
    processor = stores.start(newProcessor());
  }

  @AfterEach
  void tearDown() {
    stores.close();
  }

  @Test
  void shouldFlushOnlyTheTenantsIdleForLongEnoughWhenTheStreamTimePunctuatorFires() {
    // Given: acme's lost update waits in its buffer (grace 0 keeps the latest transaction back);
    // beta's transactions arrive later in stream time.
    process("acme", "T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30", T0);
    process("beta", "B1 s1 r(x,0) w(x,1) @10..20\nB2 s2 r(x,0) w(x,2) @15..30", T0 + IDLE.toMillis() - 1);
    final CapturedPunctuator idleFlush = punctuator(PunctuationType.STREAM_TIME);
    // When
    idleFlush.getPunctuator().punctuate(T0 + IDLE.toMillis());
    // Then: only acme, idle for the whole period, was flushed and its lost update published.
    assertEquals(List.of("acme"), forwarded("anomalies").stream().map(r -> ((Anomaly) r).getTenant()).toList());
    assertEquals(IDLE.dividedBy(4), idleFlush.getInterval());
  }

  @Test
  void shouldFlushAnIdleTenantNotSeenSinceTheTaskWasInitialisedAgainWhenTheStreamTimePunctuatorFires() {
    // Given: acme's lost update waits in its buffer; then the task is initialised again on its
    // stores (a restart, a rebalance, a replaced stream thread) and acme sends nothing more
    process("acme", "T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30", T0);
    processor.close();
    context.resetForwards();
    processor = stores.start(newProcessor());
    final CapturedPunctuator idleFlush = context.scheduledPunctuators().stream()
        .filter(p -> p.getType() == PunctuationType.STREAM_TIME).reduce((a, b) -> b).orElseThrow();

    // When: a punctuation before acme is idle for long enough, then one after
    idleFlush.getPunctuator().punctuate(T0 + IDLE.toMillis() / 2);
    final List<SpecificRecord> tooEarly = forwarded("anomalies");
    idleFlush.getPunctuator().punctuate(T0 + IDLE.toMillis());

    // Then: nothing at first; then acme's engine was rebuilt from its stored inputs and flushed: the
    // lost update is published
    assertEquals(List.of(), tooEarly);
    assertEquals(List.of("LostUpdate"), forwarded("anomalies").stream().map(r -> ((Anomaly) r).getName()).toList());
    assertEquals(1.0, metrics.sample(MetricNames.TENANT_RESTORES_TOTAL, new String[] {"tenant"},
        new String[] {"acme"}));
  }

  @Test
  void shouldPublishVerdictsOnlyForTenantsThatChangedWhenTheWallClockPunctuatorFires() {
    // Given
    process("acme", "T1 s1 r(x,0) w(x,1) @10..20", T0);
    final CapturedPunctuator verdicts = punctuator(PunctuationType.WALL_CLOCK_TIME);
    // When
    verdicts.getPunctuator().punctuate(T0);
    final List<SpecificRecord> first = forwarded("verdicts");
    context.resetForwards();
    verdicts.getPunctuator().punctuate(T0 + 1_000);
    // Then
    assertEquals(List.of("acme"), first.stream().map(r -> ((TenantVerdict) r).getTenant()).toList());
    assertEquals(List.of(), forwarded("verdicts"));
    // The only transaction still waits for the watermark (grace 0): received, not yet checked.
    assertEquals(0L, ((TenantVerdict) first.get(0)).getCounts().getTransactionsChecked());
  }

  @Test
  void shouldServeTheLatestVerdictsFindingsByKindAndZeroOnceAKindIsGone() {
    // Given: session s1 skips seq 1
    process("acme", "A1 s1 r(x,0) w(x,1) @10..20 seq=0\nA3 s1 r(x,1) w(x,2) @30..40 seq=2\n"
        + "B1 s2 r(y,0) @50..60", T0);
    final CapturedPunctuator verdicts = punctuator(PunctuationType.WALL_CLOCK_TIME);
    verdicts.getPunctuator().punctuate(T0);
    assertEquals(1.0, findings("SEQ_GAP"));

    // When: the missing transaction arrives (late: grace 0 has released A3 already)
    process("acme", "A2 s1 r(z,0) @22..25 seq=1\nB2 s2 r(y,0) @70..80", T0 + 1);
    verdicts.getPunctuator().punctuate(T0 + 1_000);

    // Then: the gap is closed, the late arrival counted
    final TenantVerdict last = (TenantVerdict) forwarded("verdicts").get(1);
    assertEquals(0.0, findings("SEQ_GAP"), last.getCounts().getFindingsByKind().toString());
    assertEquals((double) last.getCounts().getFindingsByKind().get("LATE_TRANSACTION"), findings("LATE_TRANSACTION"));
    assertTrue(findings("LATE_TRANSACTION") >= 1.0, last.getCounts().getFindingsByKind().toString());
  }

  private double findings(final String kind) {
    final Double v = metrics.sample(io.isowatch.streams.metrics.MetricNames.FINDINGS, new String[] {"tenant", "kind"},
        new String[] {"acme", kind});
    return v == null ? Double.NaN : v;
  }

  private static final String LOST_UPDATE = "T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30\n"
      + "T3 s3 r(y,0) @40..50";
  private static final String TWO_KEY_LOST_UPDATE = "T1 s1 r(x,0) r(y,0) w(x,1) w(y,1) @10..20\n"
      + "T2 s2 r(x,0) r(y,0) w(x,2) w(y,2) @15..30\nT3 s3 r(z,0) @40..50";

  @Test
  void shouldNotPublishAnAnomalyWhenItsUniqueIdIsAlreadyInThePublishedStore() {
    // Given: the lost update was published before (e.g. by a run whose engine state is gone).
    final List<String> fresh = publishedByAFreshChecker(LOST_UPDATE);
    published.put(TenantKey.ofItem("acme", fresh.get(0)), 1L);
    // When
    process("acme", LOST_UPDATE, T0);
    // Then
    assertEquals(List.of(), forwarded("anomalies"));
  }

  @Test
  void shouldPublishBothLostUpdatesWithDistinctIdsWhenOnePairOverwritesTwoKeys() {
    // When
    process("acme", TWO_KEY_LOST_UPDATE, T0);
    // Then: both, though they share their anomalyId
    final List<Anomaly> out = forwarded("anomalies").stream().map(r -> (Anomaly) r).toList();
    assertEquals(2, out.size(), out.toString());
    assertEquals(out.get(0).getAnomalyId(), out.get(1).getAnomalyId());
    assertEquals(2, out.stream().map(Anomaly::getUniqueId).distinct().count());
    assertEquals(2L, progress().published());
  }

  @Test
  void shouldNotRepublishAndRecordItUnderItsUniqueIdWhenAnOlderReleasePublishedItUnderItsAnomalyId() {
    // Given: a store written by a release that keyed published anomalies by anomalyId
    final TenantKey legacy =
        TenantKey.ofItem("acme", AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1", "T2")));
    published.put(legacy, 7L);
    final String uniqueId = publishedByAFreshChecker(LOST_UPDATE).get(0);
    // When: its engine reports the lost update again
    process("acme", LOST_UPDATE, T0);
    // Then: not republished; the entry now stands for this anomaly alone
    assertEquals(List.of(), forwarded("anomalies"));
    assertNull(published.get(legacy));
    assertEquals(7L, published.get(TenantKey.ofItem("acme", uniqueId)));
  }

  @Test
  void shouldPublishOnlyTheSecondWhenAnOlderReleasePublishedTheFirstOfTwoAnomaliesSharingAnAnomalyId() {
    // Given: an older release published the first lost update it met under the pair's anomalyId
    // and dropped the second as a duplicate
    final List<String> fresh = publishedByAFreshChecker(TWO_KEY_LOST_UPDATE);
    published.put(TenantKey.ofItem("acme", AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1", "T2"))), 7L);
    // When: the engine reports both again, in the same order
    process("acme", TWO_KEY_LOST_UPDATE, T0);
    // Then: the one never published is published now, the other not again
    assertEquals(List.of(fresh.get(1)), forwarded("anomalies").stream().map(r -> ((Anomaly) r).getUniqueId()).toList());
    assertEquals(7L, published.get(TenantKey.ofItem("acme", fresh.get(0))));
    assertNotNull(published.get(TenantKey.ofItem("acme", fresh.get(1))));
  }

  /** The uniqueIds a checker on empty stores publishes for the history, in order. */
  private List<String> publishedByAFreshChecker(final String dsl) {
    try (MockStores other = MockStores.forCheckProcessor(stateDir.resolve("fresh"), T0, Map.of())) {
      final CheckTransactionsProcessor p = new CheckTransactionsProcessor(
          OnlineTenantEngine.factory(CheckOptions.defaults(), 0L), new CheckerMetrics(), Duration.ofSeconds(1), IDLE,
          "anomalies", "verdicts");
      p.init(other.context());
      for (final TransactionEvent e : CheckerDriver.events("acme", history(dsl))) {
        p.process(new Record<>("acme", e, T0));
      }
      p.close();
      return other.context().forwarded().stream().filter(f -> "anomalies".equals(f.childName().orElse(null)))
          .map(f -> ((Anomaly) f.record().value()).getUniqueId()).toList();
    }
  }

  private TenantProgress progress() {
    final KeyValueStore<String, TenantProgress> p = context.getStateStore(Stores.TENANT_PROGRESS);
    return p.get("acme");
  }

  @Test
  void shouldStoreTheBodyHandedOnAndDropItsHeaderWhenTheRecordCarriesOne() {
    // Given: the event's body as decode-transactions hands it on (a trailing byte marks it as that one)
    final TransactionEvent event = CheckerDriver.events("acme", history("T1 s1 r(x,0) w(x,1) @10..20")).get(0);
    final byte[] encoded = new EventCodec().encode(event);
    final byte[] body = Arrays.copyOf(encoded, encoded.length + 1);
    final Record<String, TransactionEvent> record = new Record<>("acme", event, T0);
    EventBodyHeader.set(record.headers(), body);
    // When
    processor.process(record);
    // Then: stored as it came, and the header is gone before any store write
    final KeyValueStore<TenantKey, byte[]> inputs = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    assertArrayEquals(EngineInput.arrival(T0 * 1_000L, body), StoredInputEntries.inputs(inputs, "acme").get(0L));
    assertNull(record.headers().lastHeader(EventBodyHeader.NAME));
  }

  private CheckTransactionsProcessor newProcessor() {
    return new CheckTransactionsProcessor(OnlineTenantEngine.factory(CheckOptions.defaults(), 0L),
        metrics, Duration.ofSeconds(1), IDLE, "anomalies", "verdicts");
  }

  private void process(final String tenant, final String dsl, final long timestamp) {
    MockStores.feed(processor, tenant, dsl, timestamp);
  }

  private CapturedPunctuator punctuator(final PunctuationType type) {
    return context.scheduledPunctuators().stream().filter(p -> p.getType() == type).findFirst().orElseThrow();
  }

  private List<SpecificRecord> forwarded(final String child) {
    return context.forwarded().stream()
        .filter(f -> child.equals(f.childName().orElse(null)))
        .<SpecificRecord>map(f -> f.record().value())
        .toList();
  }
}
