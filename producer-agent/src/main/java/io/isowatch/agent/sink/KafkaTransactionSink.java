package io.isowatch.agent.sink;

import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.producer.TransactionProducers;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes every transaction as a {@code TransactionEvent} (Avro, Confluent wire format through
 * the schema registry, {@link AvroSerdes}, its frame computed once: {@link #valueSerializer}) to
 * {@code isowatch.txn-events.v1}, keyed by the tenant,
 * so that one tenant's transactions land in one partition and each session's stay in the order
 * the session handed them over.
 *
 * <p>The producer is idempotent with {@code acks=all}: a retried batch is neither duplicated nor
 * reordered. Nothing is dropped: while the producer's buffer is full, {@link #accept} blocks
 * (backpressure on the sessions, counted as producer waits when it took over a millisecond). A
 * send the broker or the serializer refused (an unregistered schema in production mode, a broker
 * gone past {@code delivery.timeout.ms}) is counted as failed, and every later {@link #accept} and
 * {@link #close} throws. {@link #close} flushes and waits for every acknowledgement.
 */
public final class KafkaTransactionSink implements TransactionSink {
  /** How long a full producer buffer may block a session before the run fails: a long while. */
  static final Duration MAX_BLOCK = TransactionProducers.MAX_BLOCK;
  private static final Duration PREFLIGHT = Duration.ofSeconds(30);
  private static final long WAIT_THRESHOLD_NANOS = 1_000_000;

  private final String name;
  private final String topic;
  private final String tenant;
  private final Producer<String, TransactionEvent> producer;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong waits = new AtomicLong();
  private final AtomicLong waitMicros = new AtomicLong();
  private final AtomicReference<Exception> firstFailure = new AtomicReference<>();
  private volatile boolean closed;

  /** A sink over a given producer (the caller's configuration; tests use a mock). */
  KafkaTransactionSink(final String name, final String topic, final String tenant,
      final Producer<String, TransactionEvent> producer) {
    this.name = name;
    this.topic = topic;
    this.tenant = Objects.requireNonNull(tenant, "tenant");
    this.producer = producer;
  }

  /**
   * A sink publishing to {@code bootstrap} for {@code tenant}.
   *
   * @param serde the registry and whether schemas are registered on first use (development) or
   *     must already be registered (production)
   */
  public static KafkaTransactionSink create(final String bootstrap, final AvroSerdeConfig serde, final String tenant)
      throws SinkException, InterruptedException {
    return create(bootstrap, serde, tenant, Map.of());
  }

  /**
   * A sink publishing to {@code bootstrap} for {@code tenant}, its producer and admin clients
   * configured with {@code clientProperties} (security: {@code security.protocol}, {@code sasl.*},
   * {@code ssl.*}; tuning) below the sink's own settings (idempotence, acks, …), which always win.
   */
  public static KafkaTransactionSink create(final String bootstrap, final AvroSerdeConfig serde, final String tenant,
      final Map<String, Object> clientProperties) throws SinkException, InterruptedException {
    final String topic = Topics.defaults().txnEvents().name();
    requireTopic(bootstrap, topic, clientProperties);
    final Serializer<TransactionEvent> values = valueSerializer(serde);
    resolveSchema(values, topic, tenant, serde);
    final KafkaProducer<String, TransactionEvent> producer =
        new KafkaProducer<>(producerConfig(bootstrap, clientProperties), new StringSerializer(), values);
    return new KafkaTransactionSink("kafka " + bootstrap + " " + topic, topic, tenant, producer);
  }

  /**
   * The values' serializer: the registry's for the first event (the schema check below), then the
   * same bytes framed without it ({@link TransactionProducers#valueSerializer}).
   */
  public static Serializer<TransactionEvent> valueSerializer(final AvroSerdeConfig serde) {
    return TransactionProducers.valueSerializer(serde);
  }

  /**
   * Fails fast when the broker is unreachable or the topic is missing (clusters do not create
   * topics on first use), rather than blocking the first send for {@link #MAX_BLOCK}.
   */
  private static void requireTopic(final String bootstrap, final String topic,
      final Map<String, Object> clientProperties) throws SinkException, InterruptedException {
    try (Admin admin = Admin.create(adminConfig(bootstrap, clientProperties))) {
      admin.describeTopics(List.of(topic)).allTopicNames().get(PREFLIGHT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (final ExecutionException e) {
      throw new SinkException("cannot publish to topic " + topic + " at " + bootstrap + ": " + e.getCause(), e);
    } catch (final TimeoutException e) {
      throw new SinkException("cannot reach Kafka at " + bootstrap + " within " + PREFLIGHT.toSeconds() + " s", e);
    } catch (final KafkaException e) {
      throw new SinkException("cannot connect to Kafka at " + bootstrap + ": " + e.getMessage(), e);
    }
  }

  /**
   * Looks the schema up (production) or registers it (development) once, before the sessions
   * start: an unregistered schema then fails the run up front, and the sessions do not race to
   * register it (the serializer caches what it resolved).
   */
  private static void resolveSchema(final Serializer<TransactionEvent> values, final String topic,
      final String tenant, final AvroSerdeConfig serde) throws SinkException {
    final TransactionEvent probe = TransactionEvents.fromCore(tenant, new Transaction("probe", "probe", 0,
        TxnStatus.COMMITTED, Transaction.NO_TIME, Transaction.NO_TIME, List.of(), tenant, null, 0));
    try {
      values.serialize(topic, probe);
    } catch (final RuntimeException e) {
      throw new SinkException("the TransactionEvent schema of " + topic + " could not be "
          + (serde.autoRegister() ? "registered" : "found (it must be registered; --dev registers it)")
          + " at " + serde.registryUrl() + ": " + e, e);
    }
  }

  /** The preflight admin client's settings: the client properties, bootstrap and timeout. */
  static Map<String, Object> adminConfig(final String bootstrap, final Map<String, Object> clientProperties) {
    final Map<String, Object> p = new HashMap<>();
    // Only what an admin client knows: producer tuning would draw "unknown config" warnings.
    clientProperties.forEach((k, v) -> {
      if (AdminClientConfig.configNames().contains(k)) {
        p.put(k, v);
      }
    });
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) PREFLIGHT.toMillis());
    return p;
  }

  static Map<String, Object> producerConfig(final String bootstrap) {
    return producerConfig(bootstrap, Map.of());
  }

  /**
   * The producer's settings: the client properties (security, tuning), then the shared producer
   * path's own (idempotent, acks=all, blocking when full), which win.
   */
  static Map<String, Object> producerConfig(final String bootstrap, final Map<String, Object> clientProperties) {
    final Map<String, Object> p = new HashMap<>(clientProperties);
    p.putAll(TransactionProducers.config(bootstrap, "isowatch-agent"));
    return p;
  }

  @Override
  public void accept(final Transaction txn) throws SinkException, InterruptedException {
    check();
    if (closed) {
      throw new SinkException(name + " is closed; transaction " + txn.id() + " was not sent", null);
    }
    accepted.incrementAndGet();
    final TransactionEvent event = TransactionEvents.fromCore(tenant, txn);
    final long t0 = System.nanoTime();
    try {
      producer.send(new ProducerRecord<>(topic, tenant, event), (metadata, e) -> {
        if (e == null) {
          acknowledged.incrementAndGet();
        } else {
          fail(e);
        }
      });
    } catch (final RuntimeException e) {
      // Refused before sending: serialization (the registry's client throws its own runtime
      // exceptions, e.g. an unregistered schema), a full buffer past max.block.ms, a closed producer.
      fail(e);
      check();
    }
    final long blocked = System.nanoTime() - t0;
    if (blocked > WAIT_THRESHOLD_NANOS) {
      waits.incrementAndGet();
      waitMicros.addAndGet(blocked / 1000);
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while sending " + txn.id());
    }
  }

  @Override
  public List<SinkStats> stats() {
    return List.of(new SinkStats(name, accepted.get(), acknowledged.get(), waits.get(), waitMicros.get(),
        failed.get(), "acknowledged"));
  }

  /** Sends everything still buffered, waits for the acknowledgements, and closes the producer. */
  @Override
  public synchronized void close() throws SinkException {
    if (!closed) {
      closed = true;
      try {
        producer.flush();
      } catch (final KafkaException e) {
        fail(e);
      } finally {
        producer.close();
      }
    }
    check();
  }

  private void fail(final Exception e) {
    failed.incrementAndGet();
    firstFailure.compareAndSet(null, e);
  }

  private void check() throws SinkException {
    final Exception f = firstFailure.get();
    if (f != null) {
      throw new SinkException(name + ": " + failed.get() + " of " + accepted.get() + " transactions not acknowledged"
          + " (" + acknowledged.get() + " acknowledged); first error: " + f, f);
    }
  }
}
