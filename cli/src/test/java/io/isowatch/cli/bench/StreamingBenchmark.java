package io.isowatch.cli.bench;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.TopicAdmin;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.schemas.topic.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The streaming checker's benchmark (issue 3 item 10, issue 6 item 4), driven by {@code scripts/bench-streaming.sh}
 * against a real broker and the real registry, with {@code isowatch run} in a child JVM:
 *
 * <ol>
 *   <li><b>throughput</b>, per tenant count: a generated history (injected anomalies) is produced
 *       onto the input topic first; a plain read-committed consumer reads it back (the physical
 *       reference: raw bytes, and bytes decoded by the registry's deserializer); then the checker
 *       (exactly-once v2) is started and its group's committed input offsets are sampled until they
 *       reach the end. Under exactly-once an offset is committed in the same Kafka transaction as
 *       the anomalies and state of the records before it, so a committed offset means "checked and
 *       published". The steady rate is taken between 10% and 90% of the input.
 *   <li><b>latency</b>, per rate: transactions are produced at a fixed rate, with start and end
 *       times taken at produce time; every 1/5 s of input is a fresh generated chunk (own sessions
 *       and keys) with one injected lost update. A read-committed consumer records when each
 *       anomaly becomes visible: observed latency = that instant − the end of the anomaly's latest
 *       transaction. The app's own {@code detectionLatencyMicros} (taken when it forwards the
 *       anomaly, before the commit) is reported too.
 *   <li><b>soak</b> (issue 6 item 4; {@link SoakPhase}): one tenant's workload streamed for a long
 *       time with a bounded backlog, with and without a horizon, sampling the checker's memory,
 *       state on disk and broker, and segmentation metrics over time.
 * </ol>
 *
 * <p>Every phase starts from freshly created topics and a fresh application id and state directory.
 * Figures go to standard output as a Markdown table; progress to standard error.
 */
public final class StreamingBenchmark {
  private static final Topics TOPICS = Topics.defaults();
  private static final String INPUT = TOPICS.txnEvents().name();
  /** Chunks (one injected anomaly each) per second of input in the latency phases. */
  private static final int CHUNKS_PER_SECOND = 5;

  private final Options options;
  private final AvroSerdes serdes;
  private final Admin admin;
  private final List<String[]> rows = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final PrintStream log = System.err;

  private StreamingBenchmark(final Options options) {
    this.options = options;
    this.serdes = new AvroSerdes(AvroSerdeConfig.development(URI.create(options.registry)));
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap));
  }

  public static void main(final String[] args) throws Exception {
    final Options options = Options.parse(args);
    final StreamingBenchmark bench = new StreamingBenchmark(options);
    try {
      bench.run();
    } finally {
      bench.admin.close();
    }
    if (!bench.failures.isEmpty()) {
      // A run of record must not pass silently: the script (set -e) exits non-zero as well.
      System.err.println("FAIL: " + String.join("; ", bench.failures));
      System.exit(1);
    }
  }

  private void run() throws Exception {
    Files.createDirectories(options.work);
    warmBrokerInternals();
    // Variants (checker builds) run back to back per phase, so that they meet similar load.
    if (options.phases.contains("throughput")) {
      for (final int tenants : options.tenants) {
        for (final int instances : options.instances) {
          for (final Map.Entry<String, String> v : options.variants.entrySet()) {
            throughput(tenants, instances, v.getKey(), v.getValue());
          }
        }
      }
    }
    if (options.phases.contains("latency")) {
      for (final int rate : options.rates) {
        for (final Map.Entry<String, String> v : options.variants.entrySet()) {
          latency(rate, v.getKey(), v.getValue());
        }
      }
    }
    if (options.phases.contains("soak")) {
      for (final Map.Entry<String, String> v : options.variants.entrySet()) {
        new SoakPhase(this, options).run(v.getKey(), v.getValue());
      }
    }
    final PrintStream out = System.out;
    out.println();
    out.println("| run | measurement | value |");
    out.println("| --- | --- | ---: |");
    rows.forEach(r -> out.println("| " + String.join(" | ", r) + " |"));
  }

  // ---------------------------------------------------------------------------------- throughput

  /**
   * One throughput phase: {@code tenants} tenants' histories produced first, then {@code instances}
   * checker processes of one application (same machine, each with the checker settings given, e.g.
   * {@code kafka.num.stream.threads}) consume them; figures are summed over the instances.
   */
  private void throughput(final int tenants, final int instances, final String variant, final String classPath)
      throws Exception {
    final String run = variant + " tp t=" + tenants + (instances > 1 ? " i=" + instances : "");
    log.printf("== throughput: %d transactions, %d tenant(s), %d checker instance(s)%n", options.txns, tenants,
        instances);
    resetTopics();
    final List<TransactionEvent> events = new ArrayList<>();
    final Set<String> expected = new HashSet<>();
    final List<List<TransactionEvent>> perTenant = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      final String tenant = "bench-" + i;
      final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(11 + i)
          .withTransactions(options.txns / tenants).withSessions(20).withKeys(1_000).withInjectAt(0.5)
          .withInjections(Injection.parseList("LostUpdate:3,WriteSkew:2")));
      perTenant.add(h.transactions().stream().map(t -> TransactionEvents.fromCore(tenant, t)).toList());
      OnlineChecker.check(h, CheckOptions.defaults()).anomalies()
          .forEach(a -> expected.add(io.isowatch.schemas.avro.AnomalyRecords.uniqueId(tenant, a)));
    }
    for (int i = 0; events.size() < perTenant.stream().mapToInt(List::size).sum(); i++) {
      for (final List<TransactionEvent> h : perTenant) {
        if (i < h.size()) {
          events.add(h.get(i));
        }
      }
    }
    final long n = events.size();
    final long p0 = System.nanoTime();
    try (KafkaProducer<String, TransactionEvent> producer = producer(20)) {
      for (final TransactionEvent e : events) {
        producer.send(new ProducerRecord<>(INPUT, e.getTenant(), e));
      }
      producer.flush();
    }
    final double produceSeconds = (System.nanoTime() - p0) / 1e9;
    log.printf("produced %d events in %.2f s%n", n, produceSeconds);
    final double raw = consumeRate(n, new ByteArrayDeserializer());
    final double decoded = consumeRate(n, serdes.valueSerde(TransactionEvent.class).deserializer());
    log.printf("raw consume %.0f/s, consume+decode %.0f/s%n", raw, decoded);

    final String appId = "bench-tp-" + tenants + "-" + System.currentTimeMillis();
    final Map<String, String> props = new LinkedHashMap<>();
    // Generated times advance ~5 µs per transaction: a 1 ms grace keeps ~200 of them buffered.
    // Everything else is the checker's default (verdicts every 10 s, commit every 100 ms).
    props.put("check.grace.ms", "1");
    final long t0 = System.nanoTime();
    final List<CheckerProcess> checkers = new ArrayList<>();
    try {
      for (int i = 0; i < instances; i++) {
        checkers.add(startChecker(appId, instances > 1 ? appId + "-i" + i : appId, props, classPath, variant,
            List.of(), Duration.ofSeconds(90)));
      }
      final double runningAt = (System.nanoTime() - t0) / 1e9;
      final List<double[]> samples = new ArrayList<>();
      long committed = 0;
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.timeoutSeconds);
      while (committed < n) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the checker did not finish within " + options.timeoutSeconds + " s");
        }
        committed = committedInput(appId);
        double cpu = 0;
        double streams = 0;
        double jit = 0;
        for (final CheckerProcess checker : checkers) {
          final Map<String, Double> threads = checker.threadCpuSeconds();
          cpu += checker.cpuSeconds();
          streams += threads.entrySet().stream()
              .filter(e -> e.getKey().contains("-StreamThread") || e.getKey().startsWith("bench-tp"))
              .mapToDouble(Map.Entry::getValue).sum();
          jit += threads.getOrDefault("CN CompilerThre", 0.0);
        }
        samples.add(new double[] {(System.nanoTime() - t0) / 1e9, committed, cpu, streams, jit, machineBusySeconds()});
        Thread.sleep(100);
      }
      final double total = samples.get(samples.size() - 1)[0];
      final double[] s10 = firstAtLeast(samples, 0.1 * n);
      final double[] s90 = firstAtLeast(samples, 0.9 * n);
      final double firstCommitAt = firstAtLeast(samples, 1)[0];
      final double window = s90[0] - s10[0];
      final double steady = (s90[1] - s10[1]) / window;
      final double cpuMicrosPerTxn = (s90[2] - s10[2]) / (s90[1] - s10[1]) * 1e6;
      final double streamMicrosPerTxn = (s90[3] - s10[3]) / (s90[1] - s10[1]) * 1e6;
      final double jitMicrosPerTxn = (s90[4] - s10[4]) / (s90[1] - s10[1]) * 1e6;
      final int[] seen = countAnomalies(expected);
      log.printf("checker: done in %.2f s from process start, steady %.0f/s, %.1f CPU-µs/txn%n", total,
          steady, cpuMicrosPerTxn);
      row(run, "events (tenants)", String.format("%,d (%d)", n, tenants));
      row(run, "checker instances (same application, this machine)", Integer.toString(instances));
      row(run, "checker settings besides the defaults", settings(props, variant));
      row(run, "raw consume, read_committed (events/s)", fmt(raw));
      row(run, "consume + registry Avro decode (events/s)", fmt(decoded));
      row(run, "checker e2e steady, 10%→90% of input (txn/s)", fmt(steady));
      row(run, "checker e2e incl. JVM start (txn/s)", fmt(n / total));
      row(run, "checker start: RUNNING / first input committed / all committed (s from process start)",
          String.format(Locale.ROOT, "%.1f / %.1f / %.1f", runningAt, firstCommitAt, total));
      row(run, "ratio e2e steady / raw consume", String.format("%.3f", steady / raw));
      row(run, "checker CPU per txn, 10%→90% (µs, all its threads)", String.format("%.1f", cpuMicrosPerTxn));
      row(run, "  of which Kafka Streams threads (stream thread, state updater) / JIT compilers (µs)",
          String.format("%.1f / %.1f", streamMicrosPerTxn, jitMicrosPerTxn));
      row(run, "cores busy, 10%→90%: whole machine / checker processes / their Kafka Streams threads",
          String.format(Locale.ROOT, "%.2f / %.2f / %.2f", (s90[5] - s10[5]) / window, (s90[2] - s10[2]) / window,
              (s90[3] - s10[3]) / window));
      row(run, "anomalies: distinct published / expected / duplicates",
          seen[0] + " / " + expected.size() + " / " + seen[1]);
      for (int i = 0; i < checkers.size(); i++) {
        final CheckerProcess checker = checkers.get(i);
        final String who = instances > 1 ? "instance " + i + ": " : "";
        final long[] heap = checker.heapKib();
        row(run, who + "checker RSS / peak RSS (MiB)", (checker.rssKib() / 1024) + " / " + (checker.peakRssKib() / 1024));
        row(run, who + "checker heap used / committed (MiB)", (heap[0] / 1024) + " / " + (heap[1] / 1024));
        row(run, who + "checker CPU s by thread, whole run (top 6)", checker.threadCpuSeconds().entrySet().stream()
            .limit(6).map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.1f", e.getValue()))
            .collect(java.util.stream.Collectors.joining(", ")));
      }
    } finally {
      for (final CheckerProcess checker : checkers) {
        checker.close();
      }
    }
  }

  /**
   * CPU seconds the whole machine has been busy (every core, every process: user, nice, system, irq,
   * softirq, steal of /proc/stat), so that a phase can say whether the cores were the limit.
   */
  private static double machineBusySeconds() throws IOException {
    final String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    long busy = 0;
    for (final int i : new int[] {1, 2, 3, 6, 7, 8}) {
      busy += Long.parseLong(f[i]);
    }
    return busy / 100.0;
  }

  private static double[] firstAtLeast(final List<double[]> samples, final double committed) {
    return samples.stream().filter(s -> s[1] >= committed).findFirst().orElseThrow();
  }

  /** Events per second of a read-committed consumer reading the whole input from the beginning. */
  private <V> double consumeRate(final long n, final Deserializer<V> values) {
    try (KafkaConsumer<byte[], V> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000), new ByteArrayDeserializer(), values)) {
      final List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < TOPICS.txnEvents().partitions(); p++) {
        parts.add(new TopicPartition(INPUT, p));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      long count = 0;
      long first = 0;
      while (count < n) {
        final int got = c.poll(Duration.ofMillis(200)).count();
        if (got > 0 && count == 0) {
          first = System.nanoTime();
        }
        count += got;
      }
      return n / ((System.nanoTime() - first) / 1e9);
    }
  }

  long committedInput(final String appId) throws Exception {
    final Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(appId).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
    return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(INPUT) && e.getValue() != null)
        .mapToLong(e -> e.getValue().offset()).sum();
  }

  /** {distinct anomaly ids among {@code expected} seen, duplicates}, read committed. */
  private int[] countAnomalies(final Set<String> expected) {
    final List<String> ids = new ArrayList<>();
    try (KafkaConsumer<String, Anomaly> c = anomalyConsumer()) {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      long idleSince = System.nanoTime();
      while (System.nanoTime() < deadline && System.nanoTime() - idleSince < TimeUnit.SECONDS.toNanos(2)) {
        for (final ConsumerRecord<String, Anomaly> r : c.poll(Duration.ofMillis(200))) {
          ids.add(r.value().getUniqueId());
          idleSince = System.nanoTime();
        }
      }
    }
    final Set<String> distinct = new HashSet<>(ids);
    distinct.retainAll(expected);
    return new int[] {distinct.size(), ids.size() - new HashSet<>(ids).size()};
  }

  // ------------------------------------------------------------------------------------- latency

  private void latency(final int rate, final String variant, final String classPath) throws Exception {
    final String run = variant + " lat " + rate + "/s";
    log.printf("== latency: %d txn/s for %d s, grace %d ms%n", rate, options.durationSeconds, options.graceMs);
    resetTopics();
    final int chunkSize = Math.max(20, rate / CHUNKS_PER_SECOND);
    final long total = (long) rate * options.durationSeconds;
    final List<TransactionEvent> events = new ArrayList<>();
    for (int k = 0; events.size() < total; k++) {
      final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(1_000 + k)
          .withTransactions(chunkSize).withSessions(10).withKeys(Math.max(10, chunkSize / 4)).withInjectAt(0.5)
          .withInjections(Injection.parseList("LostUpdate:1")));
      for (final Transaction t : h.transactions()) {
        events.add(renamed("c" + k + "-", TransactionEvents.fromCore("lat", t)));
      }
    }
    final String appId = "bench-lat-" + rate + "-" + System.currentTimeMillis();
    final Map<String, String> props = new LinkedHashMap<>();
    props.put("check.grace.ms", Long.toString(options.graceMs));
    try (CheckerProcess checker = startChecker(appId, props, classPath, variant, List.of())) {
      final ConcurrentLinkedQueue<long[]> seen = new ConcurrentLinkedQueue<>();
      final AtomicBoolean stop = new AtomicBoolean();
      final Thread reader = new Thread(() -> readAnomalies(seen, stop), "bench-anomaly-reader");
      reader.start();
      final long startMicros;
      final long sent;
      try (KafkaProducer<String, TransactionEvent> producer = producer(1)) {
        final long t0 = System.nanoTime();
        startMicros = nowMicros();
        final long end = t0 + TimeUnit.SECONDS.toNanos(options.durationSeconds);
        long i = 0;
        long lastEnd = 0;
        while (i < events.size() && System.nanoTime() < end) {
          final long due = t0 + i * 1_000_000_000L / rate;
          final long wait = due - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
          // Every transaction due by now goes out, each with its own produce-time timestamps.
          while (i < events.size() && t0 + i * 1_000_000_000L / rate <= System.nanoTime()) {
            final TransactionEvent e = events.get((int) i);
            final long endMicros = Math.max(nowMicros(), lastEnd + 2);
            e.setStartMicros(endMicros - 1);
            e.setEndMicros(endMicros);
            lastEnd = endMicros;
            producer.send(new ProducerRecord<>(INPUT, e.getTenant(), e));
            i++;
          }
        }
        producer.flush();
        sent = i;
        final double seconds = (System.nanoTime() - t0) / 1e9;
        log.printf("produced %d events in %.2f s (%.0f/s)%n", sent, seconds, sent / seconds);
      }
      // Anomalies of the last grace period wait for a later arrival; the rest arrive within seconds.
      Thread.sleep(5_000);
      stop.set(true);
      reader.join();
      final long rss = checker.rssKib();
      final long[] heap = checker.heapKib();
      final long windowStart = startMicros + TimeUnit.SECONDS.toMicros(options.warmupSeconds);
      final List<Long> observed = new ArrayList<>();
      final List<Long> reported = new ArrayList<>();
      for (final long[] s : seen) {
        if (s[1] >= windowStart) {
          observed.add(s[0] - s[1]);
          reported.add(s[2]);
        }
      }
      final long chunks = (sent + chunkSize - 1) / chunkSize;
      final Path csv = options.work.resolve(appId).resolve("latency.csv");
      writeLatencies(csv, seen, startMicros);
      log.printf("per-anomaly latencies: %s%n", csv);
      row(run, "transactions produced (target rate txn/s)", String.format("%,d (%,d)", sent, rate));
      row(run, "anomalies seen / chunks (one injected each)", seen.size() + " / " + chunks);
      row(run, "latency samples after " + options.warmupSeconds + " s warm-up", Integer.toString(observed.size()));
      row(run, "observed latency p50 / p99 / max (ms): end → visible to read_committed",
          percentiles(observed));
      row(run, "app detectionLatencyMicros p50 / p99 / max (ms)", percentiles(reported));
      row(run, "checker settings besides the defaults", settings(props, variant));
      row(run, "checker RSS (MiB)", Long.toString(rss / 1024));
      row(run, "checker heap used / committed (MiB)", (heap[0] / 1024) + " / " + (heap[1] / 1024));
    }
  }

  /**
   * One line per anomaly seen, in the order seen: when it became visible (s after producing
   * started), its observed and app-reported latencies (ms); where a stall shows in time.
   */
  private static void writeLatencies(final Path csv, final java.util.Collection<long[]> seen, final long startMicros)
      throws java.io.IOException {
    final StringBuilder b = new StringBuilder("visible_s,observed_ms,app_ms\n");
    for (final long[] s : seen) {
      b.append(String.format(Locale.ROOT, "%.3f,%.1f,%.1f%n", (s[0] - startMicros) / 1e6, (s[0] - s[1]) / 1e3,
          s[2] / 1e3));
    }
    Files.writeString(csv, b);
  }

  /** Reads anomalies as they become visible: {visible at µs, latest end µs, app latency µs}. */
  private void readAnomalies(final ConcurrentLinkedQueue<long[]> seen, final AtomicBoolean stop) {
    try (KafkaConsumer<String, Anomaly> c = anomalyConsumer()) {
      while (!stop.get()) {
        for (final ConsumerRecord<String, Anomaly> r : c.poll(Duration.ofMillis(20))) {
          final long visible = nowMicros();
          final long latestEnd = r.value().getTransactions().stream().map(AnomalyTransaction::getEndMicros)
              .filter(e -> e != null).mapToLong(Long::longValue).max().orElse(visible);
          final Long app = r.value().getDetectionLatencyMicros();
          seen.add(new long[] {visible, latestEnd, app == null ? -1 : app});
        }
      }
    }
  }

  /** The event of a chunk with its sessions, transaction ids and keys prefixed: chunks share nothing. */
  static TransactionEvent renamed(final String prefix, final TransactionEvent e) {
    final List<Op> ops = new ArrayList<>();
    for (final Op op : e.getOps()) {
      ops.add(Op.newBuilder(op).setKey(prefix + op.getKey()).build());
    }
    return TransactionEvent.newBuilder(e).setSession(prefix + e.getSession()).setTxn(prefix + e.getTxn())
        .setOps(ops).build();
  }

  private static String percentiles(final List<Long> micros) {
    if (micros.isEmpty()) {
      return "n/a";
    }
    final long[] v = micros.stream().mapToLong(Long::longValue).sorted().toArray();
    return String.format("%.0f / %.0f / %.0f", at(v, 0.50) / 1e3, at(v, 0.99) / 1e3, v[v.length - 1] / 1e3);
  }

  /** Nearest-rank percentile. */
  private static long at(final long[] sorted, final double q) {
    return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
  }

  // -------------------------------------------------------------------------------------- common

  /** The phase's checker settings with --checker-prop, then the variant's --variant-prop, applied. */
  private Map<String, String> checkerSettings(final Map<String, String> props, final String variant) {
    final Map<String, String> all = new LinkedHashMap<>(props);
    all.putAll(options.checkerProps);
    all.putAll(options.variantProps.getOrDefault(variant, Map.of()));
    return all;
  }

  /** {@link #checkerSettings} as one table cell. */
  private String settings(final Map<String, String> props, final String variant) {
    return checkerSettings(props, variant).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /**
   * Starts the checker with {@code props}, overridden by --checker-prop, then by the variant's
   * --variant-prop, and extra JVM options.
   */
  CheckerProcess startChecker(final String appId, final Map<String, String> props, final String classPath,
      final String variant, final List<String> extraJvm) throws Exception {
    return startChecker(appId, props, classPath, variant, extraJvm, Duration.ofSeconds(90));
  }

  /** As below, in the directory {@code appId} of the work directory. */
  CheckerProcess startChecker(final String appId, final Map<String, String> props, final String classPath,
      final String variant, final List<String> extraJvm, final Duration running) throws Exception {
    return startChecker(appId, appId, props, classPath, variant, extraJvm, running);
  }

  /**
   * As above, in the directory {@code dirName} of the work directory (one per instance when several
   * run one application), waiting up to {@code running} for RUNNING (a restart restores its stores
   * first).
   */
  CheckerProcess startChecker(final String appId, final String dirName, final Map<String, String> props,
      final String classPath, final String variant, final List<String> extraJvm, final Duration running)
      throws Exception {
    final int port = freePort();
    final Path dir = options.work.resolve(dirName);
    Files.createDirectories(dir);
    final Map<String, String> config = new LinkedHashMap<>();
    config.put("bootstrap.servers", options.bootstrap);
    config.put("schema.registry.url", options.registry);
    config.put("schemas.auto.register", "true");
    config.put("application.id", appId);
    config.put("state.dir", dir.resolve("state").toString());
    config.put("http.host", "127.0.0.1");
    config.put("http.port", Integer.toString(port));
    config.putAll(checkerSettings(props, variant));
    final StringBuilder text = new StringBuilder();
    config.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    final Path file = dir.resolve("checker.properties");
    Files.writeString(file, text);
    final List<String> jvm = new ArrayList<>(options.checkerJvm);
    jvm.addAll(options.variantJvm.getOrDefault(variant, List.of()));
    jvm.addAll(extraJvm);
    jvm.replaceAll(o -> o.replace("{dir}", dir.toString()));
    final CheckerProcess checker = CheckerProcess.start(classPath, jvm, file, port,
        dir.resolve("checker.log"));
    log.printf("checker pid %d, log %s%n", checker.pid(), dir.resolve("checker.log"));
    checker.awaitRunning(running);
    return checker;
  }

  /**
   * Makes the broker create its internal topics ({@code __consumer_offsets}, {@code
   * __transaction_state}, 50 partitions each) before the first phase: on a broker just started the
   * first consumer group and the first transactional producer wait seconds for them (the checker's
   * log: "This is not the correct coordinator", InitProducerId retried), which only the first phase
   * paid, and a running cluster never pays.
   */
  private void warmBrokerInternals() throws Exception {
    final long t0 = System.nanoTime();
    resetTopics();
    final Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap);
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bench-warm-" + System.currentTimeMillis());
    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(config,
        new org.apache.kafka.common.serialization.ByteArraySerializer(),
        new org.apache.kafka.common.serialization.ByteArraySerializer())) {
      p.initTransactions();
    }
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
        ConsumerConfig.GROUP_ID_CONFIG, "bench-warm-" + System.currentTimeMillis()),
        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.commitSync(Map.of(new TopicPartition(INPUT, 0), new OffsetAndMetadata(0)), Duration.ofSeconds(60));
    }
    log.printf("broker internals ready in %.1f s (consumer offsets and transaction state topics)%n",
        (System.nanoTime() - t0) / 1e9);
  }

  /** Deletes IsoWatch's topics and creates them again: every phase starts from empty topics. */
  void resetTopics() throws Exception {
    final List<String> names = TOPICS.all().stream().map(TopicSpec::name).toList();
    final Set<String> existing = new HashSet<>(admin.listTopics().names().get());
    final List<String> delete = names.stream().filter(existing::contains).toList();
    if (!delete.isEmpty()) {
      admin.deleteTopics(delete).all().get(30, TimeUnit.SECONDS);
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (admin.listTopics().names().get().stream().anyMatch(delete::contains)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("topics not deleted: " + delete);
        }
        Thread.sleep(100);
      }
    }
    // Creation can race the deletion's cleanup on the broker: retry a few times.
    for (int attempt = 1; ; attempt++) {
      try {
        new TopicAdmin(admin, Duration.ofSeconds(30)).ensure(TOPICS.all());
        break;
      } catch (final Exception e) {
        if (attempt == 10) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
    // The input's partitions must have leaders before producing: read their end offsets.
    final Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
    for (int p = 0; p < TOPICS.txnEvents().partitions(); p++) {
      ends.put(new TopicPartition(INPUT, p), OffsetSpec.latest());
    }
    admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
  }

  KafkaProducer<String, TransactionEvent> producer(final int lingerMs) {
    final Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    return new KafkaProducer<>(config, new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer());
  }

  KafkaConsumer<String, Anomaly> anomalyConsumer() {
    final KafkaConsumer<String, Anomaly> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10),
        new StringDeserializer(), serdes.valueSerde(Anomaly.class).deserializer());
    final List<TopicPartition> parts = new ArrayList<>();
    for (int p = 0; p < TOPICS.anomalies().partitions(); p++) {
      parts.add(new TopicPartition(TOPICS.anomalies().name(), p));
    }
    c.assign(parts);
    c.seekToBeginning(parts);
    return c;
  }

  /** Marks the benchmark failed (its process exits 1 after printing everything). */
  void fail(final String why) {
    failures.add(why);
  }

  KafkaConsumer<String, TenantVerdict> verdictConsumer() {
    final KafkaConsumer<String, TenantVerdict> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10),
        new StringDeserializer(), serdes.valueSerde(TenantVerdict.class).deserializer());
    final List<TopicPartition> parts = new ArrayList<>();
    for (int p = 0; p < TOPICS.verdicts().partitions(); p++) {
      parts.add(new TopicPartition(TOPICS.verdicts().name(), p));
    }
    c.assign(parts);
    c.seekToBeginning(parts);
    return c;
  }

  void row(final String run, final String what, final String value) {
    rows.add(new String[] {run, what, value});
    log.printf("%s | %s | %s%n", run, what, value);
  }

  Admin admin() {
    return admin;
  }

  private static String fmt(final double perSecond) {
    return String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  private static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Command-line options; see {@code scripts/bench-streaming.sh --help}. */
  record Options(String bootstrap, String registry, Path work, Map<String, String> variants, Set<String> phases,
      long txns, List<Integer> tenants, List<Integer> instances, List<Integer> rates, int durationSeconds, int warmupSeconds,
      long graceMs, long timeoutSeconds, List<String> checkerJvm,
      Map<String, String> checkerProps, Map<String, Map<String, String>> variantProps,
      Map<String, List<String>> variantJvm, long soakTxns, long soakOffTxns, long soakMaxLag, int soakSampleSeconds,
      String soakSegmentation, long soakHorizonTxns, long soakPruneMs, long soakAnomalyEvery, int soakStallSeconds,
      long soakInputRetentionMb, boolean soakRestart, String soakInjectAt, String soakInjectKinds) {

    static Options parse(final String[] args) {
      final Map<String, String> a = new HashMap<>();
      final Map<String, String> props = new LinkedHashMap<>();
      final Map<String, String> variants = new LinkedHashMap<>();
      final Map<String, Map<String, String>> variantProps = new LinkedHashMap<>();
      final Map<String, List<String>> variantJvm = new LinkedHashMap<>();
      for (int i = 0; i + 1 < args.length; i += 2) {
        if (args[i].equals("--checker-prop")) {
          final String[] kv = args[i + 1].split("=", 2);
          props.put(kv[0], kv[1]);
        } else if (args[i].equals("--variant-prop")) {
          // label:key=value, a checker setting of one variant only; repeatable.
          final String[] lkv = args[i + 1].split(":", 2);
          final String[] kv = lkv[1].split("=", 2);
          variantProps.computeIfAbsent(lkv[0], l -> new LinkedHashMap<>()).put(kv[0], kv[1]);
        } else if (args[i].equals("--variant-jvm")) {
          // label:options, JVM options of one variant's checker only (after --checker-jvm); repeatable.
          final String[] lo = args[i + 1].split(":", 2);
          Arrays.stream(lo[1].split(" ")).filter(o -> !o.isBlank())
              .forEach(o -> variantJvm.computeIfAbsent(lo[0], l -> new ArrayList<>()).add(o));
        } else if (args[i].equals("--variant")) {
          // label=class path of a checker build; repeatable.
          final String[] kv = args[i + 1].split("=", 2);
          variants.put(kv[0], kv[1]);
        } else {
          a.put(args[i], args[i + 1]);
        }
      }
      return new Options(
          required(a, "--bootstrap"), required(a, "--registry"), Path.of(required(a, "--work")),
          variants.isEmpty() ? Map.of(a.getOrDefault("--label", "run"), required(a, "--checker-cp")) : variants,
          Set.of(a.getOrDefault("--phases", "throughput,latency").split(",")),
          Long.parseLong(a.getOrDefault("--txns", "300000")),
          ints(a.getOrDefault("--tenants", "1,6")), ints(a.getOrDefault("--instances", "1")),
          ints(a.getOrDefault("--rates", "1000,10000")),
          Integer.parseInt(a.getOrDefault("--duration", "30")), Integer.parseInt(a.getOrDefault("--warmup", "5")),
          Long.parseLong(a.getOrDefault("--grace-ms", "100")), Long.parseLong(a.getOrDefault("--timeout", "600")),
          Arrays.stream(a.getOrDefault("--checker-jvm", "-Xmx1g").split(" ")).filter(s -> !s.isBlank()).toList(),
          props, variantProps, variantJvm,
          Long.parseLong(a.getOrDefault("--soak-txns", "50000000")),
          Long.parseLong(a.getOrDefault("--soak-off-txns", "300000")),
          Long.parseLong(a.getOrDefault("--soak-max-lag", "2000000")),
          Integer.parseInt(a.getOrDefault("--soak-sample-seconds", "30")),
          oneOf(a.getOrDefault("--soak-segmentation", "both"), "--soak-segmentation", "on", "off", "both"),
          Long.parseLong(a.getOrDefault("--soak-horizon-txns", "100000")),
          Long.parseLong(a.getOrDefault("--soak-prune-ms", "10000")),
          Long.parseLong(a.getOrDefault("--soak-anomaly-every", "1000000")),
          Integer.parseInt(a.getOrDefault("--soak-stall-seconds", "300")),
          Long.parseLong(a.getOrDefault("--soak-input-retention-mb", "2048")),
          Boolean.parseBoolean(a.getOrDefault("--soak-restart", "false")),
          a.getOrDefault("--soak-inject-at", SoakInjections.DEFAULT_AT),
          a.getOrDefault("--soak-inject-kinds", SoakInjections.DEFAULT_KINDS));
    }

    private static String oneOf(final String value, final String name, final String... allowed) {
      if (!Arrays.asList(allowed).contains(value)) {
        throw new IllegalArgumentException(name + " must be one of " + Arrays.toString(allowed) + ", not " + value);
      }
      return value;
    }

    private static String required(final Map<String, String> a, final String name) {
      final String v = a.get(name);
      if (v == null) {
        throw new IllegalArgumentException(name + " is required");
      }
      return v;
    }

    private static List<Integer> ints(final String csv) {
      return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
    }
  }
}
