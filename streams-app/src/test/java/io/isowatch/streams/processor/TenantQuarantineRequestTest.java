package io.isowatch.streams.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.fault.QuarantineRequests;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.MetricNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quarantine request made by the production exception handler while the stream thread whose send
 * failed is still running (the handler runs on the producer's thread when the broker answers) must
 * be left to the task started after that thread is replaced: what the failing thread's processor
 * writes is aborted with its transaction. Found by QuarantineIT's CI failure: the failing thread's
 * verdict punctuation took the request for tenant big, its quarantine was aborted, and the thread's
 * failure, with no request left, was taken for a bug that shut the client down.
 */
class TenantQuarantineRequestTest {
  private static final long T0 = 1_000_000L;
  private static final Duration IDLE = Duration.ofSeconds(10);
  private static final String LOST_UPDATE = "T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30";

  @TempDir Path stateDir;

  private final QuarantineRequests requests = new QuarantineRequests();
  private final CheckerMetrics metrics = new CheckerMetrics();
  private MockStores stores;

  @AfterEach
  void tearDown() {
    if (stores != null) {
      stores.close();
    }
  }

  @Test
  void shouldLeaveTheRequestToTheTaskStartedAfterItWhenTheFailingThreadRunsTheTenantAgain() {
    // Given: big's lost update flushed and its anomaly sent; the broker refuses it, so the handler
    // names big while the thread that sent it still runs.
    stores = MockStores.forCheckProcessor(stateDir, T0, Map.of());
    final MockProcessorContext<String, SpecificRecord> context = stores.context();
    final CheckTransactionsProcessor failing = stores.start(newProcessor());
    MockStores.feed(failing, "big", LOST_UPDATE, T0);
    latest(context, PunctuationType.STREAM_TIME).getPunctuator().punctuate(T0 + IDLE.toMillis());
    assertEquals(List.of("big"), forwarded(context, "anomalies").stream().map(r -> ((Anomaly) r).getTenant()).toList());
    requests.request("big", "org.apache.kafka.common.errors.RecordTooLargeException producing to isowatch.anomalies.v1");

    // When: the failing thread's verdict punctuation runs big before its next send raises the failure
    latest(context, PunctuationType.WALL_CLOCK_TIME).getPunctuator().punctuate(T0 + 300);

    // Then: that processor does not quarantine big (its transaction aborts), the request waits
    assertFalse(quarantinedVerdictOf(context, "big"), forwarded(context, "verdicts").toString());
    assertTrue(requests.anyPending());
    assertEquals(null, metrics.sample(MetricNames.TENANT_QUARANTINED, new String[] {"tenant"}, new String[] {"big"}));

    // When: the thread is replaced; the task starts again on its stores and stream time moves on
    failing.close();
    context.resetForwards();
    stores.start(newProcessor());
    latest(context, PunctuationType.STREAM_TIME).getPunctuator().punctuate(T0 + 2 * IDLE.toMillis());

    // Then: the new task's processor quarantines big and the request is gone
    assertTrue(quarantinedVerdictOf(context, "big"), forwarded(context, "verdicts").toString());
    assertFalse(requests.anyPending());
    assertEquals(1.0, metrics.sample(MetricNames.TENANT_QUARANTINED, new String[] {"tenant"}, new String[] {"big"}));
  }

  @Test
  void shouldTakeOnlyRequestsMadeUpToTheMarkAndKeepTheFirstReason() {
    // Given
    requests.request("a", "first");
    final long started = requests.mark();
    requests.request("a", "second");
    requests.request("b", "after the start");
    // When / Then: a made before the mark, its first reason; b made after it stays
    assertEquals("first", requests.take("a", started).orElseThrow());
    assertTrue(requests.take("a", started).isEmpty());
    assertTrue(requests.take("b", started).isEmpty());
    assertTrue(requests.anyPending());
    assertEquals("after the start", requests.take("b", requests.mark()).orElseThrow());
    assertFalse(requests.anyPending());
  }

  private CheckTransactionsProcessor newProcessor() {
    return new CheckTransactionsProcessor(OnlineTenantEngine.factory(CheckOptions.defaults(), 0L), metrics,
        Duration.ofMillis(300), IDLE, "anomalies", "verdicts", Duration.ofMillis(-1), requests);
  }

  /** The punctuator of that type scheduled last: the one of the processor started last. */
  private static CapturedPunctuator latest(final MockProcessorContext<String, SpecificRecord> context,
      final PunctuationType type) {
    return context.scheduledPunctuators().stream().filter(p -> p.getType() == type).reduce((a, b) -> b).orElseThrow();
  }

  private static boolean quarantinedVerdictOf(final MockProcessorContext<String, SpecificRecord> context,
      final String tenant) {
    return forwarded(context, "verdicts").stream().map(r -> (TenantVerdict) r)
        .anyMatch(v -> v.getTenant().equals(tenant)
            && v.getCounts().getFindingsByKind().containsKey(VerdictRecords.TENANT_QUARANTINED));
  }

  private static List<SpecificRecord> forwarded(final MockProcessorContext<String, SpecificRecord> context,
      final String child) {
    return context.forwarded().stream()
        .filter(f -> child.equals(f.childName().orElse(null)))
        .<SpecificRecord>map(f -> f.record().value())
        .toList();
  }
}
