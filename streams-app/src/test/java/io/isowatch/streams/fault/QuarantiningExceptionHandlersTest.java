package io.isowatch.streams.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.streams.IsoWatchTopology;
import io.isowatch.streams.Stores;
import io.isowatch.streams.processor.TenantKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.internals.DefaultErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class QuarantiningExceptionHandlersTest {
  private final QuarantineRequests requests = new QuarantineRequests();

  @Test
  void shouldNameTheTenantAndFailWhenTheBrokerRefusesAnAnomalyForGood() {
    // Given
    final QuarantiningProductionExceptionHandler handler = production();
    final ProducerRecord<byte[], byte[]> anomaly = new ProducerRecord<>("isowatch.anomalies.v1", bytes("big"), new byte[9]);
    // When
    final ProductionExceptionHandler.Response response =
        handler.handleError(context(IsoWatchTopology.ANOMALIES_SINK), anomaly, new RecordTooLargeException("too large"));
    // Then
    assertEquals(ProductionExceptionHandler.Result.FAIL, response.result());
    assertTrue(requests.take("big", requests.mark()).orElseThrow().contains("RecordTooLargeException"));
    assertFalse(requests.anyPending());
  }

  @Test
  void shouldNameOnlyTheRefusedRecordsTenantWhenTheAbortedTransactionFailsOtherRecordsWithTheSameError() {
    // Given: the broker refuses big's anomaly; the transactional producer then fails the batches it
    // had not sent yet (ok's anomaly, clock's progress, handled by other tasks' handlers) with that
    // same exception
    final RecordTooLargeException refusal = new RecordTooLargeException("too large");
    final ProducerRecord<byte[], byte[]> big = new ProducerRecord<>("isowatch.anomalies.v1", bytes("big"), new byte[9]);
    final ProducerRecord<byte[], byte[]> ok = new ProducerRecord<>("isowatch.anomalies.v1", bytes("ok"), new byte[9]);
    final ProducerRecord<byte[], byte[]> clock =
        new ProducerRecord<>("app-" + Stores.TENANT_PROGRESS + "-changelog", bytes("clock"), new byte[1]);
    // When
    final ProductionExceptionHandler.Response first = production().handleError(context(IsoWatchTopology.ANOMALIES_SINK), big, refusal);
    final ProductionExceptionHandler.Response second = production().handleError(context(IsoWatchTopology.ANOMALIES_SINK), ok, refusal);
    final ProductionExceptionHandler.Response third = production().handleError(context(IsoWatchTopology.CHECK), clock, refusal);
    // Then: every record fails the thread; only big is named
    assertEquals(List.of(ProductionExceptionHandler.Result.FAIL, ProductionExceptionHandler.Result.FAIL,
        ProductionExceptionHandler.Result.FAIL), List.of(first.result(), second.result(), third.result()));
    assertTrue(requests.take("big", requests.mark()).isPresent());
    assertFalse(requests.anyPending());
    // ... while a refusal of its own names ok
    production().handleError(context(IsoWatchTopology.ANOMALIES_SINK), ok, new RecordTooLargeException("too large"));
    assertTrue(requests.take("ok", requests.mark()).isPresent());
  }

  @Test
  void shouldNameTheTenantOfAChangelogRecordWhenItCannotBeProduced() {
    // Given
    final QuarantiningProductionExceptionHandler handler = production();
    final byte[] key = TenantKey.serde().serializer().serialize("t", TenantKey.ofIndex("acme", 42));
    // When
    handler.handleError(context(IsoWatchTopology.CHECK),
        new ProducerRecord<>("app-" + Stores.TENANT_TRANSACTIONS + "-changelog", key, new byte[1]),
        new RecordTooLargeException("too large"));
    handler.handleError(context(IsoWatchTopology.CHECK),
        new ProducerRecord<>("app-" + Stores.TENANT_PROGRESS + "-changelog", bytes("beta"), new byte[1]),
        new RecordTooLargeException("too large"));
    // Then
    assertTrue(requests.take("acme", requests.mark()).isPresent());
    assertTrue(requests.take("beta", requests.mark()).isPresent());
  }

  @Test
  void shouldRetryAndNameNobodyWhenTheErrorIsRetriable() {
    // When
    final ProductionExceptionHandler.Response response = production().handleError(context(IsoWatchTopology.ANOMALIES_SINK),
        new ProducerRecord<>("isowatch.anomalies.v1", bytes("acme"), new byte[1]), new NotEnoughReplicasException("x"));
    // Then
    assertEquals(ProductionExceptionHandler.Result.RETRY, response.result());
    assertFalse(requests.anyPending());
  }

  @Test
  void shouldNameNobodyWhenADeadLetterCannotBeProduced() {
    // When: a dead letter's key is the input's, not a tenant for sure.
    production().handleError(context(IsoWatchTopology.DLQ_SINK),
        new ProducerRecord<>("isowatch.dlq.v1", bytes("acme"), new byte[1]), new RecordTooLargeException("x"));
    // Then
    assertFalse(requests.anyPending());
  }

  @Test
  void shouldFailWithoutNamingATenantWhenTheRegistryIsDown() {
    // Given
    final QuarantiningProcessingExceptionHandler handler = new QuarantiningProcessingExceptionHandler();
    handler.configure(Map.of(QuarantineRequests.CONFIG_KEY, requests));
    // When
    final ProcessingExceptionHandler.Response transientFailure = handler.handleError(context(IsoWatchTopology.DECODE),
        new Record<>(bytes("acme"), new byte[1], 0L), new RegistryUnavailableException("down", null));
    final ProcessingExceptionHandler.Response bug = handler.handleError(context(IsoWatchTopology.CHECK),
        new Record<>("acme", "event", 0L), new IllegalStateException("engine bug"));
    // Then: the outage names nobody; the failure on acme's record names acme.
    assertEquals(ProcessingExceptionHandler.Result.FAIL, transientFailure.result());
    assertEquals(ProcessingExceptionHandler.Result.FAIL, bug.result());
    assertEquals(Optional.of("java.lang.IllegalStateException: engine bug in " + IsoWatchTopology.CHECK),
        requests.take("acme", requests.mark()));
  }

  private QuarantiningProductionExceptionHandler production() {
    final QuarantiningProductionExceptionHandler handler = new QuarantiningProductionExceptionHandler();
    handler.configure(Map.of(QuarantineRequests.CONFIG_KEY, requests));
    return handler;
  }

  private static ErrorHandlerContext context(final String node) {
    return new DefaultErrorHandlerContext(null, "isowatch.txn-events.v1", 0, 7L, new RecordHeaders(), node,
        new TaskId(0, 0), 0L, null, null);
  }

  private static byte[] bytes(final String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
