package io.isowatch.cli.bench;

import io.isowatch.core.gen.GeneratedHistory;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedAnomaly;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The soak's producer, on its own thread: one tenant's MT workload (20 sessions, 1,000 keys, a
 * simulated SER database, generated as it goes in constant memory), with a small chunk holding one
 * injected lost update after every {@code anomalyEvery} transactions of it. Each chunk has its own
 * sessions, transactions and keys (prefixed {@code a<k>-}), so it neither disturbs the workload nor
 * is disturbed by it: the published anomalies should be exactly one per chunk.
 *
 * <p>At each of the {@code points} (issue 10 item 8), before the workload's transaction there, one
 * instance of every kind of {@code kinds} ({@link SoakInjections}); for a stale read it keeps the
 * first few values the workload writes and the position where each was overwritten. Whatever it
 * injects is added to {@link #expected()}, chunks included. After the last injection, the last two
 * transactions wait so that stream time passes it by more than the absence bound twice over: a
 * read waiting for its writer (thin-air, stale) is decided only once a transaction that late has
 * been released, which in a short run the workload alone might never bring.
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

  private final Producer<String, TransactionEvent> producer;
  private final String topic;
  private final String tenant;
  private final long target;
  private final long maxLag;
  private final long anomalyEvery;
  private final List<String> kinds;
  private final Iterator<SoakInjections.Point> points;
  private final long tailMicros;
  private final List<SoakCheck.Expected> expected = new CopyOnWriteArrayList<>();
  /** Early committed writes of the workload: key → {value, written at, overwritten at or -1}. */
  private final Map<String, long[]> early = new LinkedHashMap<>();
  private SoakInjections.Point next;
  private long lastInjectionEndMicros;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong committed = new AtomicLong();
  private volatile boolean stopped;
  private volatile Throwable failure;
  private long workload;
  private volatile int chunks;
  private long lastEndMicros;

  SoakProducer(final Producer<String, TransactionEvent> producer, final String topic, final String tenant,
      final long target, final long maxLag, final long anomalyEvery) {
    this(producer, topic, tenant, target, maxLag, anomalyEvery, List.of(), List.of(), 0);
  }

  /**
   * With injections: one of each of {@code kinds} at each fraction of {@code target} in
   * {@code fractions}; {@code absenceBoundMs} is the checker's (its grace unless set higher).
   */
  SoakProducer(final Producer<String, TransactionEvent> producer, final String topic, final String tenant,
      final long target, final long maxLag, final long anomalyEvery, final List<Double> fractions,
      final List<String> kinds, final long absenceBoundMs) {
    this.producer = producer;
    this.topic = topic;
    this.tenant = tenant;
    this.target = target;
    this.maxLag = maxLag;
    this.anomalyEvery = anomalyEvery;
    this.kinds = kinds.isEmpty() ? List.of() : List.copyOf(kinds);
    final List<SoakInjections.Point> all = this.kinds.isEmpty() ? List.of() : SoakInjections.points(fractions, target);
    final int batch = SoakInjections.batchTransactions(this.kinds);
    for (final SoakInjections.Point p : all) {
      // The whole batch, and the two transactions of the tail after the last one, must fit.
      if (p.position() + (long) all.size() * batch + 2 > target) {
        throw new IllegalArgumentException("the injection at " + p.label() + " of " + target
            + " transactions does not fit (" + batch + " transactions per point, 2 after the last)");
      }
    }
    this.points = all.iterator();
    this.next = points.hasNext() ? points.next() : null;
    this.tailMicros = TimeUnit.MILLISECONDS.toMicros(absenceBoundMs + 500);
  }

  /** What must be published for what was injected so far (complete once the thread has ended). */
  List<SoakCheck.Expected> expected() {
    return List.copyOf(expected);
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
    while (next != null && sent.get() >= next.position()) {
      inject(next);
      next = points.hasNext() ? points.next() : null;
    }
    remember(t, sent.get());
    send(TransactionEvents.fromCore(tenant, t));
    workload++;
    if (anomalyEvery > 0 && workload % anomalyEvery == 0) {
      for (final TransactionEvent e : chunk(chunks)) {
        send(e);
      }
      chunks++;
    }
  }

  /** One instance of every kind at {@code point}. */
  private void inject(final SoakInjections.Point point) throws IOException {
    for (final String kind : kinds) {
      final long at = sent.get();
      final SoakInjections.Batch b;
      if (kind.equals(SoakInjections.STALE_READ)) {
        final Map.Entry<String, long[]> v = early.entrySet().stream().filter(e -> e.getValue()[2] >= 0).findFirst()
            .orElseThrow(() -> new IllegalStateException("no early value of the workload was overwritten by "
                + point.label() + ": nothing to read stale"));
        early.remove(v.getKey());
        b = SoakInjections.staleRead(point, tenant, v.getKey(), v.getValue()[0], v.getValue()[1], v.getValue()[2]);
        send(b.events().get(0));
        lastInjectionEndMicros = Math.max(lastInjectionEndMicros, lastEndMicros);
      } else {
        final long base = Math.max(nowMicros(), lastEndMicros + minStep);
        b = SoakInjections.pattern(kind, point, tenant, base);
        for (final TransactionEvent e : b.events()) {
          sendAsIs(e);
          lastInjectionEndMicros = Math.max(lastInjectionEndMicros, e.getEndMicros());
        }
        lastEndMicros = Math.max(lastEndMicros, base);
      }
      expected.add(b.expected());
      System.err.printf("injected %s as transactions #%,d to #%,d: %s%n", kind, at, sent.get() - 1, b.expected());
    }
  }

  /**
   * Keeps the first committed writes of a few keys, and where each value was first overwritten
   * (a later committed write of its key): the stale reads read those values.
   */
  private void remember(final Transaction t, final long position) {
    if (t.status() != TxnStatus.COMMITTED || !kinds.contains(SoakInjections.STALE_READ)) {
      return;
    }
    for (final Op op : t.ops()) {
      if (!op.isWrite()) {
        continue;
      }
      final long[] known = early.get(op.key());
      if (known == null) {
        if (early.size() < 16 && position < 10_000) {
          early.put(op.key(), new long[] {op.value(), position, -1});
        }
      } else if (known[2] < 0 && known[0] != op.value()) {
        known[2] = position;
      }
    }
  }

  /**
   * The least step between two transactions' end times, in µs (2 by default). A test that checks
   * what the segmented engine publishes sets it larger, so the event times do not depend on how
   * fast this JVM produces: with the default, a warm JVM sends thousands of transactions within
   * the grace, nothing is released or pruned before a stale read arrives, and the read is then
   * (truly) a G-single-realtime instead of a read beyond the horizon.
   */
  SoakProducer minStepMicros(final long step) {
    this.minStep = step;
    return this;
  }

  private long minStep = 2;

  private void send(final TransactionEvent e) throws IOException {
    awaitTurn();
    final long endMicros = Math.max(nowMicros(), lastEndMicros + minStep);
    lastEndMicros = endMicros;
    e.setStartMicros(endMicros - 1);
    e.setEndMicros(endMicros);
    produce(e);
  }

  /** Sends an event whose times are already set (an injected pattern's). */
  private void sendAsIs(final TransactionEvent e) throws IOException {
    awaitTurn();
    produce(e);
  }

  private void awaitTurn() throws IOException {
    if (stopped || sent.get() >= target) {
      throw new Enough();
    }
    if (lastInjectionEndMicros > 0 && sent.get() >= target - 2) {
      // The tail: the second-to-last transaction comes more than the absence bound after the last
      // injection, the last one more than the grace after it, so the former is released and the
      // reads of the injections are decided.
      final long after = sent.get() == target - 2 ? lastInjectionEndMicros : lastEndMicros;
      while (nowMicros() < after + tailMicros) {
        sleep(10);
      }
    }
    while (sent.get() - committed.get() > maxLag) {
      if (stopped) {
        throw new Enough();
      }
      sleep(50);
    }
  }

  private static void sleep(final long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (final InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting", interrupted);
    }
  }

  private static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  private void produce(final TransactionEvent e) {
    producer.send(new ProducerRecord<>(topic, null, e.getEndMicros() / 1_000, tenant, e), (meta, error) -> {
      if (error != null && failure == null) {
        failure = error;
      }
    });
    sent.incrementAndGet();
  }

  /** Chunk {@code k}: a fresh small history with one lost update, its names prefixed; its lost update is expected. */
  private List<TransactionEvent> chunk(final int k) {
    final String prefix = "a" + k + "-";
    final List<TransactionEvent> events = new ArrayList<>();
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(GeneratorConfig.defaults().withSeed(1_000 + k)
        .withTransactions(CHUNK).withSessions(10).withKeys(10).withInjectAt(0.5)
        .withInjections(Injection.parseList("LostUpdate:1")));
    g.history().transactions()
        .forEach(t -> events.add(StreamingBenchmark.renamed(prefix, TransactionEvents.fromCore(tenant, t))));
    for (final InjectedAnomaly a : g.summary().injected()) {
      expected.add(new SoakCheck.Expected("LostUpdate of chunk " + k, a.kind().patternName(),
          a.txnIds().stream().map(id -> prefix + id).toList(), null, null));
    }
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
