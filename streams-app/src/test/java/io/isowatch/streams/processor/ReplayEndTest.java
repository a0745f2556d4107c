package io.isowatch.streams.processor;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.testkit.CheckerDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReplayEnd}: its text form, and the check processor flushing a partition's tenants after
 * the partition's last replayed record, with no punctuator involved.
 */
class ReplayEndTest {
  private static final long T0 = 1_000_000L;
  private static final String TOPIC = "isowatch.txn-events.v1";

  @TempDir Path stateDir;

  private MockProcessorContext<String, SpecificRecord> context;
  private CheckTransactionsProcessor processor;
  private MockStores stores;

  @AfterEach
  void tearDown() {
    if (processor != null) {
      processor.close();
    }
    if (stores != null) {
      stores.close();
    }
  }

  @Test
  void shouldParseAndPrintPartitionOffsetPairsWhenGivenTheTextForm() {
    // Given / When
    final ReplayEnd end = ReplayEnd.parse(" 3:17, 0:5 ");
    // Then
    assertEquals(Map.of(0, 5L, 3, 17L), end.lastOffsets());
    assertEquals("0:5,3:17", end.toString());
    assertTrue(end.isLast(3, 17));
    assertFalse(end.isLast(3, 16));
    assertFalse(end.isLast(1, 5));
    assertTrue(ReplayEnd.parse("").isEmpty());
  }

  @Test
  void shouldRejectTheTextWhenItIsNotPartitionOffsetPairs() {
    // Given / When / Then
    assertEquals("expected partition:offset, got '3'",
        assertThrows(IllegalArgumentException.class, () -> ReplayEnd.parse("3")).getMessage());
    assertEquals("partition 1 is given twice",
        assertThrows(IllegalArgumentException.class, () -> ReplayEnd.parse("1:2,1:3")).getMessage());
    assertEquals("partition and offset must be >= 0, got '1:-2'",
        assertThrows(IllegalArgumentException.class, () -> ReplayEnd.parse("1:-2")).getMessage());
    assertThrows(org.apache.kafka.common.config.ConfigException.class, () -> new IsoWatchStreamsConfig(
        Map.of(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG, "0:x")));
  }

  @Test
  void shouldFlushThePartitionsTenantsAndPublishTheirVerdictsWhenItsLastReplayedRecordIsProcessed() {
    // Given: the replay ends at offset 2 of partition 0; acme's lost update (with grace 0 its
    // latest transaction waits for the watermark) and beta's one transaction.
    start("0:2");
    // When
    process("acme", "T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30", 0);
    final List<SpecificRecord> before = new ArrayList<>(forwarded("anomalies"));
    final boolean commitBefore = context.committed();
    process("beta", "B1 s1 r(x,0) w(x,1) @10..20", 2);
    // Then: nothing was certain before the end; at the end the buffers are flushed, the lost update
    // published, and a verdict per tenant counts every transaction.
    assertEquals(List.of(), before);
    // The replay waits for the last record's offset to be committed: a commit is asked for at once,
    // not left to the commit interval.
    assertFalse(commitBefore);
    assertTrue(context.committed());
    assertEquals(List.of("acme"), forwarded("anomalies").stream().map(r -> ((Anomaly) r).getTenant()).toList());
    final List<TenantVerdict> verdicts = forwarded("verdicts").stream().map(r -> (TenantVerdict) r).toList();
    assertEquals(List.of("acme", "beta"), verdicts.stream().map(TenantVerdict::getTenant).sorted().toList());
    verdicts.forEach(v -> assertEquals(0L, v.getReport().getBuffered(), v.getTenant()));
    assertEquals(2L, verdicts.stream().filter(v -> v.getTenant().equals("acme")).findFirst().orElseThrow()
        .getCounts().getTransactionsChecked());
  }

  @Test
  void shouldNotFlushWhenTheRecordIsNotTheLastOfItsPartition() {
    // Given: the end is on another partition, and further on this one.
    start("0:9,1:1");
    // When
    process("acme", "T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30", 0);
    // Then
    assertEquals(List.of(), forwarded("anomalies"));
    assertEquals(List.of(), forwarded("verdicts"));
    assertFalse(context.committed());
  }

  private void start(final String end) {
    stores = MockStores.forCheckProcessor(stateDir, T0, Map.of(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG, end));
    context = stores.context();
    processor = new CheckTransactionsProcessor(OnlineTenantEngine.factory(CheckOptions.defaults(), 0L),
        new CheckerMetrics(), Duration.ofSeconds(1), Duration.ofMillis(-1), "anomalies", "verdicts");
    processor.init(context);
  }


  /** Processes the events on partition 0 from {@code offset} on, one offset each. */
  private void process(final String tenant, final String dsl, final long offset) {
    long next = offset;
    for (final TransactionEvent e : CheckerDriver.events(tenant, history(dsl))) {
      context.setRecordMetadata(TOPIC, 0, next++);
      processor.process(new Record<>(tenant, e, T0));
    }
  }

  private List<SpecificRecord> forwarded(final String child) {
    return context.forwarded().stream()
        .filter(f -> child.equals(f.childName().orElse(null)))
        .<SpecificRecord>map(f -> f.record().value())
        .toList();
  }
}
