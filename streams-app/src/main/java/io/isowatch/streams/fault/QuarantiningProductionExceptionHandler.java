package io.isowatch.streams.fault;

import io.isowatch.streams.IsoWatchTopology;
import io.isowatch.streams.Stores;
import io.isowatch.streams.processor.TenantKey;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * IsoWatch's {@code production.exception.handler}. Retriable send errors are retried as by
 * Kafka's default handler. A record the producer or broker refuses for good (too large, say) cannot
 * be skipped under exactly-once (the refusal aborts the whole transaction) and would fail the task
 * again after every restart: the handler names the record's tenant in {@link QuarantineRequests}
 * and fails the stream thread, which {@code CheckerApp} replaces; on the retry the check processor
 * quarantines the tenant before producing anything for it. Only the record the failure belongs to
 * names its tenant: the other records the aborted transaction fails with the same exception do not
 * ({@link QuarantineRequests#requestFor}). Serialization failures are treated alike,
 * except transient registry failures, which fail the thread for a retry and name nobody. The check
 * processor sizes its anomalies and verdicts before it forwards them, so this is the backstop for
 * limits it cannot see (a topic's {@code max.message.bytes} below the producer's limit).
 */
public final class QuarantiningProductionExceptionHandler implements ProductionExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(QuarantiningProductionExceptionHandler.class);

  private QuarantineRequests requests = new QuarantineRequests();

  @Override
  public void configure(final Map<String, ?> configs) {
    requests = QuarantineRequests.from(configs);
  }

  @Override
  public Response handleError(final ErrorHandlerContext context, final ProducerRecord<byte[], byte[]> record,
      final Exception exception) {
    if (exception instanceof RetriableException) {
      return Response.retry();
    }
    final String tenant = IsoWatchTopology.DLQ_SINK.equals(context.processorNodeId()) ? null
        : tenantOfProduced(record.topic(), record.key());
    return quarantineAndFail(context, record.topic(), tenant, exception);
  }

  @Override
  public Response handleSerializationError(final ErrorHandlerContext context, final ProducerRecord record,
      final Exception exception, final SerializationExceptionOrigin origin) {
    if (RegistryErrors.isTransient(exception)) {
      LOG.warn("Transient failure serializing a record, the task resumes from its last commit topic=[{}] error=[{}]",
          record.topic(), exception.toString());
      return Response.fail();
    }
    final String tenant = IsoWatchTopology.DLQ_SINK.equals(context.processorNodeId()) ? null
        : QuarantiningProcessingExceptionHandler.tenantOf(record.key());
    return quarantineAndFail(context, record.topic(), tenant, exception);
  }

  private Response quarantineAndFail(final ErrorHandlerContext context, final String topic, final String tenant,
      final Exception exception) {
    if (tenant != null && !requests.requestFor(tenant, exception, exception + " producing to " + topic)) {
      LOG.warn("A record failed with the error of a record produced before it, which aborts their transaction; its "
          + "tenant is not at fault and not quarantined tenant=[{}] outputTopic=[{}] task=[{}] error=[{}]", tenant, topic,
          context.taskId(), exception.toString());
      return Response.fail();
    }
    LOG.error("A record could not be produced; its tenant is quarantined when the task resumes tenant=[{}] "
        + "outputTopic=[{}] task=[{}] inputTopic=[{}] partition=[{}] offset=[{}]", tenant, topic, context.taskId(),
        context.topic(), context.partition(), context.offset(), exception);
    return Response.fail();
  }

  /**
   * The tenant of a produced record: the key of an output topic is the tenant's UTF-8, the key of a
   * store's changelog starts with it ({@link TenantKey}, or the plain tenant for the stores keyed by
   * tenant alone). (A dead letter's key is the input's, which names no tenant for sure: not asked.)
   */
  static String tenantOfProduced(final String topic, final byte[] key) {
    if (key == null) {
      return null;
    }
    if (topic.endsWith("-changelog")) {
      if (topic.endsWith(Stores.TENANT_PROGRESS + "-changelog") || topic.endsWith(Stores.TENANT_QUARANTINE + "-changelog")) {
        return new String(key, StandardCharsets.UTF_8);
      }
      try {
        return TenantKey.serde().deserializer().deserialize(topic, key).tenant();
      } catch (final RuntimeException notATenantKey) {
        return null;
      }
    }
    return new String(key, StandardCharsets.UTF_8);
  }
}
