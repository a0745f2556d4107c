package io.isowatch.cli.bench;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The soak's producer, on its own thread: one tenant's MT workload (20 sessions, 1,000 keys, a
 * simulated SER database, generated as it goes in constant memory), with a small chunk holding one
 * injected lost update after every {@code anomalyEvery} transactions of it. Each chunk has its own
 * sessions, transactions and keys (prefixed {@code a<k>-}), so it neither disturbs the workload nor
 * is disturbed by it: the published anomalies should be exactly one per chunk.
 *
 * <p>It sends {@code target} transactions in all, but never more than {@code maxLag} ahead of the
 * checker's committed offset (set by the sampler through {@link #committed(long)}), so that the
 * backlog, the broker's disk and the measurement stay bounded. Start and end times and the record
 * timestamp are taken at send time (strictly increasing), so stream time, which drives the prune
 * punctuator, follows real time.
 */
final class SoakProducer implements Runnable {
  /** Transactions per injected chunk. */
  static final int CHUNK = 20;

  private final KafkaProducer<String, TransactionEvent> producer;
  private final String topic;
  private final String tenant;
  private final long target;
  private final long maxLag;
  private final long anomalyEvery;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong committed = new AtomicLong();
  private volatile boolean stopped;
  private volatile Throwable failure;
  private long workload;
  private volatile int chunks;
  private long lastEndMicros;

  SoakProducer(final KafkaProducer<String, TransactionEvent> producer, final String topic, final String tenant,
      final long target, final long maxLag, final long anomalyEvery) {
    this.producer = producer;
    this.topic = topic;
    this.tenant = tenant;
    this.target = target;
    this.maxLag = maxLag;
    this.anomalyEvery = anomalyEvery;
  }

  long sent() {
    return sent.get();
  }

  /** Chunks sent so far, each with one injected lost update. */
  int chunks() {
    return chunks;
  }

  /** The checker's committed input offset, as last sampled: the producer waits while it is too far ahead. */
  void committed(final long offset) {
    committed.set(offset);
  }

  /** Ends production at the next transaction. */
  void stop() {
    stopped = true;
  }

  /** What ended the thread abnormally, if anything. */
  Throwable failure() {
    return failure;
  }

  @Override
  public void run() {
    // The workload is generated for the whole target; the sink ends it early once the target,
    // chunks included, is sent. The generator has no cancellation: the sink's exception is it.
    final GeneratorConfig config = GeneratorConfig.defaults().withSeed(42).withTransactions(target)
        .withSessions(20).withKeys(1_000);
    try {
      MtHistoryGenerator.generate(config, this::workload);
      producer.flush();
    } catch (final Enough done) {
      producer.flush();
    } catch (final IOException | RuntimeException e) {
      failure = e;
    } finally {
      producer.close();
    }
  }

  private void workload(final Transaction t) throws IOException {
    send(TransactionEvents.fromCore(tenant, t));
    workload++;
    if (anomalyEvery > 0 && workload % anomalyEvery == 0) {
      for (final TransactionEvent e : chunk(chunks)) {
        send(e);
      }
      chunks++;
    }
  }

  private void send(final TransactionEvent e) throws IOException {
    if (stopped || sent.get() >= target) {
      throw new Enough();
    }
    while (sent.get() - committed.get() > maxLag) {
      if (stopped) {
        throw new Enough();
      }
      try {
        Thread.sleep(50);
      } catch (final InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the checker", interrupted);
      }
    }
    final long endMicros = Math.max(ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()), lastEndMicros + 2);
    lastEndMicros = endMicros;
    e.setStartMicros(endMicros - 1);
    e.setEndMicros(endMicros);
    producer.send(new ProducerRecord<>(topic, null, endMicros / 1_000, tenant, e), (meta, error) -> {
      if (error != null && failure == null) {
        failure = error;
      }
    });
    sent.incrementAndGet();
  }

  /** Chunk {@code k}: a fresh small history with one lost update, its names prefixed. */
  private List<TransactionEvent> chunk(final int k) {
    final String prefix = "a" + k + "-";
    final List<TransactionEvent> events = new ArrayList<>();
    MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(1_000 + k).withTransactions(CHUNK)
            .withSessions(10).withKeys(10).withInjectAt(0.5).withInjections(Injection.parseList("LostUpdate:1")))
        .transactions().forEach(t -> events.add(StreamingBenchmark.renamed(prefix, TransactionEvents.fromCore(tenant, t))));
    return events;
  }

  /** Ends the generator's loop: the target is reached or the producer was stopped. */
  private static final class Enough extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Enough() {
      super(null, null, false, false);
    }
  }
}
