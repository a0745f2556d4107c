package io.isowatch.streams.fault;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * IsoWatch's {@code processing.exception.handler}: an exception that escaped a processor never
 * drops the record (its transaction would go missing). A transient registry failure fails the
 * stream thread, which {@code CheckerApp} replaces, so the task resumes from its last commit. Any
 * other exception with a tenant in the record's key names that tenant in {@link
 * QuarantineRequests} before failing the thread: on the retry the check processor quarantines the
 * tenant instead of failing on its record again. Without a tenant (a punctuator) it is a bug: the
 * thread fails and the client shuts down.
 */
public final class QuarantiningProcessingExceptionHandler implements ProcessingExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(QuarantiningProcessingExceptionHandler.class);

  private QuarantineRequests requests = new QuarantineRequests();

  @Override
  public void configure(final Map<String, ?> configs) {
    requests = QuarantineRequests.from(configs);
  }

  @Override
  public Response handleError(final ErrorHandlerContext context, final Record<?, ?> record, final Exception exception) {
    if (RegistryErrors.isTransient(exception)) {
      LOG.warn("Transient failure in processing, the task resumes from its last commit processor=[{}] task=[{}] "
          + "topic=[{}] partition=[{}] offset=[{}] error=[{}]", context.processorNodeId(), context.taskId(),
          context.topic(), context.partition(), context.offset(), exception.toString());
      return Response.fail();
    }
    final String tenant = record == null ? null : tenantOf(record.key());
    if (tenant != null) {
      LOG.error("A record could not be processed; its tenant is quarantined when the task resumes tenant=[{}] "
          + "processor=[{}] task=[{}] topic=[{}] partition=[{}] offset=[{}]", tenant, context.processorNodeId(),
          context.taskId(), context.topic(), context.partition(), context.offset(), exception);
      requests.request(tenant, exception + " in " + context.processorNodeId());
    }
    return Response.fail();
  }

  /** The tenant of a record key: the check processor's String, or the input's raw UTF-8 bytes. */
  static String tenantOf(final Object key) {
    if (key instanceof String s) {
      return s;
    }
    return key instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : null;
  }
}
