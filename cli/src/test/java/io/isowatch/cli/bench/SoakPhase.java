package io.isowatch.cli.bench;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.VerdictFinding;
import io.isowatch.schemas.topic.Topics;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The soak (issue 6 item 4): one tenant's workload streamed through the checker for a long time,
 * to show whether its memory and state stay flat with segmentation, and what segmentation costs
 * in throughput. A {@link SoakProducer} keeps a bounded backlog ahead of the checker; every
 * {@code --soak-sample-seconds} one {@link SoakSample} is taken and printed (Markdown on standard
 * output, as it comes, and a CSV in the run's directory); at the end a PNG chart. With {@code
 * --soak-segmentation both}, a shorter run without a horizon comes first, then the run with one,
 * and their rates are compared over the same window.
 */
final class SoakPhase {
  private static final String TENANT = "soak";
  private static final String INPUT = Topics.defaults().txnEvents().name();
  private static final long MIB = 1024L * 1024L;
  /** Prefix of the changelog sizes in a row's figures: {@code changelog_bytes:<store>}. */
  private static final String CHANGELOG = "changelog_bytes:";
  /** Findings about the checker rather than the history, allowed in the final verdict. */
  private static final Set<String> TOLERATED_FINDINGS = Set.of("HORIZON_PRUNED");

  private final StreamingBenchmark bench;
  private final StreamingBenchmark.Options options;
  private final PrintStream out = System.out;
  private final PrintStream log = System.err;

  /** One finished soak run: its committed counts over time (one point a second) and how it ended. */
  private record Run(String label, long target, long committed, String ending, List<double[]> progress) {
    /** Committed transactions per second between the first points at or above {@code from} and {@code to}. */
    OptionalDouble rate(final double from, final double to) {
      final double[] a = progress.stream().filter(p -> p[1] >= from).findFirst().orElse(null);
      final double[] b = progress.stream().filter(p -> p[1] >= to).findFirst().orElse(null);
      if (a == null || b == null || b[0] <= a[0]) {
        return OptionalDouble.empty();
      }
      return OptionalDouble.of((b[1] - a[1]) / (b[0] - a[0]));
    }
  }

  SoakPhase(final StreamingBenchmark bench, final StreamingBenchmark.Options options) {
    this.bench = bench;
    this.options = options;
  }

  /** Runs the soak as {@code --soak-segmentation} says, for one checker build. */
  void run(final String variant, final String classPath) throws Exception {
    final String mode = options.soakSegmentation();
    final boolean both = mode.equals("both");
    Run off = null;
    Run on = null;
    if (both || mode.equals("off")) {
      off = soak(variant, classPath, false, both ? options.soakOffTxns() : options.soakTxns());
    }
    if (both || mode.equals("on")) {
      on = soak(variant, classPath, true, options.soakTxns());
    }
    if (off != null && on != null) {
      // The same window for both: 10%→90% of what the run without a horizon committed (it may have
      // died early), and each run's own 10%→90% for reference.
      final double from = 0.1 * off.committed();
      final double to = 0.9 * off.committed();
      final OptionalDouble offRate = off.rate(from, to);
      final OptionalDouble onRate = on.rate(from, to);
      final String window = String.format(Locale.ROOT, "%,.0f→%,.0f", from, to);
      bench.row(variant + " soak", "off run: txn/s over committed " + window, rate(offRate));
      bench.row(variant + " soak", "on run: txn/s over the same window", rate(onRate));
      bench.row(variant + " soak", "ratio on / off, same window", offRate.isPresent() && onRate.isPresent()
          ? String.format(Locale.ROOT, "%.2f", onRate.getAsDouble() / offRate.getAsDouble()) : "n/a");
    }
  }

  private Run soak(final String variant, final String classPath, final boolean segmented, final long target)
      throws Exception {
    final String onOff = segmented ? "on" : "off";
    final String label = variant + " soak " + onOff;
    log.printf("== soak, segmentation %s: %,d transactions, backlog at most %,d, a row every %d s%n", onOff,
        target, options.soakMaxLag(), options.soakSampleSeconds());
    bench.resetTopics();
    limitInputRetention();
    final String appId = "bench-soak-" + onOff + "-" + System.currentTimeMillis();
    final Map<String, String> props = new LinkedHashMap<>();
    props.put("check.grace.ms", Long.toString(options.graceMs()));
    if (segmented) {
      // 0: the checker's own default (issue 10: bounded by default).
      if (options.soakHorizonTxns() > 0) {
        props.put("check.horizon.transactions", Long.toString(options.soakHorizonTxns()));
      }
      if (options.soakPruneMs() > 0) {
        props.put("check.prune.interval.ms", Long.toString(options.soakPruneMs()));
      }
    } else {
      props.put("check.horizon.transactions", "-1");
    }
    final Path dir = options.work().resolve(appId);
    final Run run;
    final List<SoakSample> samples = new ArrayList<>();
    // An OutOfMemoryError (expected without a horizon) would otherwise leave a JVM collecting in
    // vain for a long time; exiting ends the run at once, and the run says so.
    try (CheckerProcess checker = bench.startChecker(appId, props, classPath, variant, List.of("-XX:+ExitOnOutOfMemoryError"))) {
      out.printf("%n### %s: %,d transactions, checker %s%n%n", label, target, props);
      out.println(SoakSample.markdownHeader());
      // Issue 10 item 8's injections go into the run with a horizon only: the run without one is a
      // throughput reference that is expected to run out of heap.
      final SoakProducer producer = new SoakProducer(bench.producer(20), INPUT, TENANT, target, options.soakMaxLag(),
          options.soakAnomalyEvery(), segmented ? SoakInjections.fractions(options.soakInjectAt()) : List.of(),
          segmented ? SoakInjections.kinds(options.soakInjectKinds()) : List.of(), absenceBoundMs());
      final Thread thread = new Thread(producer, "soak-producer");
      final long t0 = System.nanoTime();
      thread.start();
      try {
        run = sampleUntilDone(label, target, appId, dir, checker, producer, t0, samples);
      } finally {
        producer.stop();
        thread.join();
      }
      final TenantVerdict verdict = segmented && run.committed() >= target ? finalVerdict(target) : null;
      final List<SoakCheck.PublishedAnomaly> published = publishedAnomalies(dir.resolve("anomalies.txt"));
      final Set<String> anomalies = new HashSet<>();
      published.forEach(a -> anomalies.add(a.identity()));
      bench.row(label, "transactions committed / target", String.format(Locale.ROOT, "%,d / %,d", run.committed(),
          target));
      bench.row(label, "how it ended", run.ending());
      bench.row(label, "txn/s, 10%→90% of its committed transactions",
          rate(run.rate(0.1 * run.committed(), 0.9 * run.committed())));
      bench.row(label, "anomalies: distinct published / injected chunks sent (one lost update each)",
          anomalies.size() + " / " + producer.chunks());
      final OptionalLong peak = samples.stream().map(SoakSample::rssKib).filter(OptionalLong::isPresent)
          .mapToLong(OptionalLong::getAsLong).max();
      bench.row(label, "checker RSS, largest in the rows (MiB)",
          peak.isPresent() ? Long.toString(peak.getAsLong() / 1024) : "n/a");
      bench.row(label, "rows: CSV, chart", dir.resolve("soak.csv") + ", " + dir.resolve("soak.png"));
      flatness(label, samples);
      if (segmented) {
        checkPublished(label, run, producer.expected(), published, verdict, dir);
      }
    }
    SoakChart.write(samples, label + " (" + props + ")", dir.resolve("soak.png"));
    if (segmented && options.soakRestart()) {
      restarts(label, appId, dir, props, classPath, variant);
    }
    cleanUp(appId, dir);
    return run;
  }

  private Run sampleUntilDone(final String label, final long target, final String appId, final Path dir,
      final CheckerProcess checker, final SoakProducer producer, final long t0, final List<SoakSample> samples)
      throws Exception {
    final List<double[]> progress = new ArrayList<>();
    long committed = 0;
    double movedAt = 0;
    double lastRowAt = 0;
    long lastRowCommitted = 0;
    String ending = null;
    while (ending == null) {
      Thread.sleep(1_000);
      final double elapsed = (System.nanoTime() - t0) / 1e9;
      if (producer.failure() != null) {
        throw new IllegalStateException("the soak's producer failed", producer.failure());
      }
      final long now = bench.committedInput(appId);
      producer.committed(now);
      progress.add(new double[] {elapsed, now});
      if (now > committed) {
        movedAt = elapsed;
      }
      committed = now;
      if (committed >= target) {
        ending = "reached the target";
      } else if (!checker.alive()) {
        ending = "the checker exited (status " + checker.exitStatus() + ", see " + dir.resolve("checker.log") + ")";
      } else if (elapsed - movedAt > options.soakStallSeconds()) {
        ending = "stopped: no progress for " + options.soakStallSeconds() + " s";
      }
      if (ending != null || elapsed - lastRowAt >= options.soakSampleSeconds()) {
        final SoakSample s = sample(checker, appId, dir, elapsed, producer.sent(), committed,
            (committed - lastRowCommitted) / (elapsed - lastRowAt));
        samples.add(s);
        out.println(s.markdownRow());
        writeCsv(samples, dir.resolve("soak.csv"));
        lastRowAt = elapsed;
        lastRowCommitted = committed;
      }
    }
    log.printf("%s: %s at %,d committed%n", label, ending, committed);
    return new Run(label, target, committed, ending, progress);
  }

  private SoakSample sample(final CheckerProcess checker, final String appId, final Path dir, final double elapsed,
      final long produced, final long committed, final double rate) throws Exception {
    OptionalLong rss = OptionalLong.empty();
    PrometheusText metrics = PrometheusText.parse("");
    if (checker.alive()) {
      try {
        rss = OptionalLong.of(checker.rssKib());
        metrics = PrometheusText.parse(checker.metrics());
      } catch (final IOException gone) {
        // The checker died between the check and the reads: this row has no process figures.
        log.printf("checker figures unavailable at %.0f s: %s%n", elapsed, gone);
      }
    }
    final Map<String, OptionalDouble> values = new HashMap<>();
    for (final String m : SoakSample.METRICS) {
      values.put(m, metrics.value(m, TENANT));
    }
    // Whatever the build serves about retired versions (issue 10 item 1), read generically.
    metrics.series("isowatch_retired_", TENANT).forEach((k, v) -> values.put(k, OptionalDouble.of(v)));
    final Map<String, Long> topics = topicBytes();
    topics.forEach((topic, bytes) -> {
      if (topic.startsWith(appId + "-") && topic.endsWith("-changelog")) {
        values.put(CHANGELOG + topic.substring(appId.length() + 1, topic.length() - "-changelog".length()),
            OptionalDouble.of(bytes));
      }
    });
    return new SoakSample(elapsed, produced, committed, rate, rss, metrics.value("isowatch_heap_used_bytes", TENANT),
        directoryBytes(dir.resolve("state")), optional(topics.get(INPUT)),
        optional(topics.get(appId + "-tenant-transactions-changelog")),
        optional(topics.get(appId + "-tenant-checkpoints-changelog")), values);
  }

  /**
   * Restarts the stopped checker twice (issue 10: the rebuild after a restart is bounded): on its
   * state directory, then on an empty one (every store restored from its changelog, as after a
   * rebalance to a new instance). For each: the state directory and the changelogs before, the
   * time to RUNNING, and the time until the tenant's engine is rebuilt (on its first record, so a
   * few transactions are sent) with what the rebuild read, from the checker's log line.
   */
  private void restarts(final String label, final String appId, final Path dir, final Map<String, String> props,
      final String classPath, final String variant) throws Exception {
    for (final boolean wipe : new boolean[] {false, true}) {
      final String what = wipe ? "restart, empty state dir" : "restart, same state dir";
      final Map<String, Long> topics = topicBytes();
      bench.row(label, what + ": state dir before (MiB)", mib(directoryBytes(dir.resolve("state")).orElse(0)));
      for (final String store : List.of("tenant-transactions", "tenant-checkpoints", "published-anomalies",
          "tenant-progress")) {
        bench.row(label, what + ": changelog " + store + " (MiB)",
            mib(topics.getOrDefault(appId + "-" + store + "-changelog", 0L)));
      }
      if (wipe) {
        deleteTree(dir.resolve("state"));
      }
      final Path previousLog = dir.resolve("checker.log");
      if (Files.exists(previousLog)) {
        Files.move(previousLog, dir.resolve("checker-before-" + (wipe ? "wipe" : "restart") + ".log"));
      }
      final long t0 = System.nanoTime();
      try (CheckerProcess checker = bench.startChecker(appId, props, classPath, variant, List.of(),
          Duration.ofMinutes(30))) {
        final double running = (System.nanoTime() - t0) / 1e9;
        final SoakProducer more = new SoakProducer(bench.producer(20), INPUT, TENANT, 100, Long.MAX_VALUE / 2, 0);
        final Thread thread = new Thread(more, "soak-restart-producer");
        thread.start();
        thread.join();
        String line = null;
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        while (line == null && System.nanoTime() < deadline && checker.alive()) {
          Thread.sleep(100);
          try (Stream<String> lines = Files.lines(dir.resolve("checker.log"))) {
            line = lines.filter(l -> l.contains("Tenant engine rebuilt tenant=[" + TENANT + "]")).findFirst()
                .orElse(null);
          }
        }
        final double rebuilt = (System.nanoTime() - t0) / 1e9;
        bench.row(label, what + ": process start to RUNNING (s)", String.format(Locale.ROOT, "%.1f", running));
        bench.row(label, what + ": process start to the tenant's engine rebuilt (s)",
            line == null ? "not seen" : String.format(Locale.ROOT, "%.1f", rebuilt));
        bench.row(label, what + ": the rebuild's log line", line == null ? "none"
            : line.substring(line.indexOf("Tenant engine rebuilt")));
      }
    }
  }

  private static String mib(final long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (double) MIB);
  }

  private static void deleteTree(final Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (final Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Bytes on the broker per topic (all partitions), from its log directories. */
  private Map<String, Long> topicBytes() throws Exception {
    final List<Integer> brokers = bench.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
        .map(Node::id).toList();
    final Map<String, Long> bytes = new HashMap<>();
    for (final Map<String, LogDirDescription> dirs
        : bench.admin().describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values()) {
      for (final LogDirDescription d : dirs.values()) {
        for (final Map.Entry<TopicPartition, ReplicaInfo> r : d.replicaInfos().entrySet()) {
          bytes.merge(r.getKey().topic(), r.getValue().size(), Long::sum);
        }
      }
    }
    return bytes;
  }

  /** Bytes of the files under {@code root} ({@code du}), empty when it does not exist. */
  static OptionalLong directoryBytes(final Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return OptionalLong.empty();
    }
    final AtomicLong sum = new AtomicLong();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) {
        sum.addAndGet(attrs.size());
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(final Path file, final IOException e) throws IOException {
        // RocksDB deletes files as it compacts: one gone since it was listed takes no space.
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(final Path d, final IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) {
          throw e;
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return OptionalLong.of(sum.get());
  }

  /**
   * Caps the input topic's size ({@code retention.bytes}, in 64 MiB segments), so that 5×10^7
   * transactions do not fill the broker's disk: records the checker has committed are not read
   * again, and the cap is far above the backlog the producer allows. 0 keeps everything.
   */
  private void limitInputRetention() throws Exception {
    if (options.soakInputRetentionMb() <= 0) {
      return;
    }
    final ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, INPUT);
    bench.admin().incrementalAlterConfigs(Map.of(topic, List.of(
        new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_BYTES_CONFIG,
            Long.toString(options.soakInputRetentionMb() * MIB)), AlterConfigOp.OpType.SET),
        new AlterConfigOp(new ConfigEntry(TopicConfig.SEGMENT_BYTES_CONFIG, Long.toString(64 * MIB)),
            AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
  }

  /**
   * Every anomaly record published for the soak's tenant (retractions included), read committed
   * until 2 s pass without one; each is written to {@code list}, one a line: identity
   * ({@code AnomalyIds.identity}), name, transactions, and "retraction" where it is one.
   */
  private List<SoakCheck.PublishedAnomaly> publishedAnomalies(final Path list) throws IOException {
    final List<SoakCheck.PublishedAnomaly> all = new ArrayList<>();
    final List<String> lines = new ArrayList<>();
    try (KafkaConsumer<String, Anomaly> c = bench.anomalyConsumer()) {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      long idleSince = System.nanoTime();
      while (System.nanoTime() < deadline && System.nanoTime() - idleSince < TimeUnit.SECONDS.toNanos(2)) {
        for (final ConsumerRecord<String, Anomaly> r : c.poll(Duration.ofMillis(200))) {
          if (TENANT.equals(r.key())) {
            final Anomaly a = r.value();
            final SoakCheck.PublishedAnomaly p = new SoakCheck.PublishedAnomaly(AnomalyIds.identity(a),
                a.getName() != null ? a.getName() : a.getType(),
                a.getTransactions().stream().map(t -> t.getTxn()).toList(), a.getRetraction() != null);
            all.add(p);
            lines.add(p.identity() + " " + p.name() + " " + p.txns() + (p.retraction() ? " retraction" : ""));
          }
          idleSince = System.nanoTime();
        }
      }
    }
    Files.write(list, lines);
    return all;
  }

  /** Deletes the run's internal topics and state directory: a long soak's would fill the disk. */
  private void cleanUp(final String appId, final Path dir) throws Exception {
    final List<String> internal = bench.admin().listTopics().names().get(30, TimeUnit.SECONDS).stream()
        .filter(t -> t.startsWith(appId + "-")).toList();
    bench.admin().deleteTopics(internal).all().get(60, TimeUnit.SECONDS);
    final Path state = dir.resolve("state");
    if (Files.exists(state)) {
      try (Stream<Path> files = Files.walk(state)) {
        for (final Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
    log.printf("deleted %d internal topics of %s and its state directory%n", internal.size(), appId);
  }

  /** The checker's absence bound: its grace, or check.absence.bound.ms when set higher. */
  private long absenceBoundMs() {
    final String bound = options.checkerProps().get("check.absence.bound.ms");
    return Math.max(options.graceMs(), bound == null ? -1 : Long.parseLong(bound));
  }

  /**
   * The CSV, written whole at each row (a few hundred rows at most): its extra columns are every
   * series any row has beyond the fixed ones, which a build may start serving mid-run.
   */
  private static void writeCsv(final List<SoakSample> samples, final Path csv) throws IOException {
    final Set<String> extra = new TreeSet<>();
    samples.forEach(s -> extra.addAll(s.metrics().keySet()));
    SoakSample.METRICS.forEach(extra::remove);
    final List<String> extras = List.copyOf(extra);
    final List<String> lines = new ArrayList<>();
    lines.add(SoakSample.csvHeader(extras));
    samples.forEach(s -> lines.add(s.csvRow(extras)));
    final Path tmp = csv.resolveSibling(csv.getFileName() + ".tmp");
    Files.write(tmp, lines);
    Files.move(tmp, csv, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Flatness (issue 10 item 8): per figure, the largest value in the rows of the first half of
   * the committed transactions against the largest in the second half, and their ratio. A figure
   * bounded by the horizon has a ratio near 1 however long the run; one that grows with the
   * history has about 2 or more.
   */
  private void flatness(final String label, final List<SoakSample> samples) {
    final long total = samples.stream().mapToLong(SoakSample::committed).max().orElse(0);
    final Map<String, java.util.function.Function<SoakSample, OptionalDouble>> figures = new LinkedHashMap<>();
    figures.put("RSS (MiB)", s -> s.rssKib().isPresent() ? OptionalDouble.of(s.rssKib().getAsLong() / 1024.0)
        : OptionalDouble.empty());
    figures.put("heap used, garbage included (MiB)", s -> mibOf(s.heapUsedBytes()));
    figures.put("state dir (MiB)", s -> mibOf(asDouble(s.stateDirBytes())));
    final Set<String> names = new TreeSet<>();
    samples.forEach(s -> names.addAll(s.metrics().keySet()));
    for (final String n : names) {
      if (n.startsWith(CHANGELOG)) {
        figures.put("changelog " + n.substring(CHANGELOG.length()) + " (MiB)", s -> mibOf(get(s, n)));
      }
    }
    figures.put("checkpoint (MiB)", s -> mibOf(get(s, "isowatch_checkpoint_bytes")));
    figures.put("retained transactions", s -> get(s, "isowatch_retained_transactions"));
    figures.put("stored inputs", s -> get(s, "isowatch_state_transactions"));
    for (final String n : names) {
      if (n.startsWith("isowatch_retired_")) {
        figures.put(n, s -> get(s, n));
      }
    }
    out.printf("%n#### %s: flatness, first half against second half of %,d committed transactions%n%n", label,
        total);
    out.println("| figure | first half, largest | second half, largest | ratio |");
    out.println("| --- | ---: | ---: | ---: |");
    figures.forEach((name, f) -> {
      final OptionalDouble first = samples.stream().filter(s -> s.committed() <= total / 2).map(f)
          .filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).max();
      final OptionalDouble second = samples.stream().filter(s -> s.committed() > total / 2).map(f)
          .filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).max();
      if (first.isEmpty() && second.isEmpty()) {
        return;
      }
      final String ratio = first.isPresent() && second.isPresent() && first.getAsDouble() > 0
          ? String.format(Locale.ROOT, "%.2f", second.getAsDouble() / first.getAsDouble()) : "n/a";
      out.printf("| %s | %s | %s | %s |%n", name, figure(first), figure(second), ratio);
      bench.row(label, "flatness: " + name + ", largest first half / second half (ratio)",
          figure(first) + " / " + figure(second) + " (" + ratio + ")");
    });
  }

  private static OptionalDouble get(final SoakSample s, final String name) {
    return s.metrics().getOrDefault(name, OptionalDouble.empty());
  }

  private static OptionalDouble asDouble(final OptionalLong v) {
    return v.isPresent() ? OptionalDouble.of(v.getAsLong()) : OptionalDouble.empty();
  }

  private static OptionalDouble mibOf(final OptionalDouble bytes) {
    return bytes.isPresent() ? OptionalDouble.of(bytes.getAsDouble() / MIB) : OptionalDouble.empty();
  }

  private static String figure(final OptionalDouble v) {
    if (v.isEmpty()) {
      return "n/a";
    }
    final double d = v.getAsDouble();
    return d != 0 && Math.abs(d) < 0.01 ? String.format(Locale.ROOT, "%.2g", d)
        : String.format(Locale.ROOT, "%,.1f", d);
  }

  /**
   * The tenant's verdict once it covers every transaction sent ({@code report.transactions}),
   * waiting up to two verdict intervals and a minute; null when none does by then.
   */
  private TenantVerdict finalVerdict(final long target) {
    TenantVerdict last = null;
    try (KafkaConsumer<String, TenantVerdict> c = bench.verdictConsumer()) {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (System.nanoTime() < deadline) {
        for (final ConsumerRecord<String, TenantVerdict> r : c.poll(Duration.ofMillis(500))) {
          if (TENANT.equals(r.key()) && r.value() != null) {
            last = r.value();
          }
        }
        if (last != null && last.getReport() != null && last.getReport().getTransactions() >= target) {
          return last;
        }
      }
    }
    log.printf("no verdict of tenant %s covering %,d transactions within 90 s (last: %s)%n", TENANT, target,
        last == null ? "none" : last.getCounts());
    return null;
  }

  /**
   * Issue 10 item 8: the injected anomalies against what was published (SoakCheck), as a table and
   * PASS/FAIL on standard output; FAIL makes the benchmark exit non-zero. The expectations are
   * written to {@code expectations.txt}.
   */
  private void checkPublished(final String label, final Run run, final List<SoakCheck.Expected> expected,
      final List<SoakCheck.PublishedAnomaly> published, final TenantVerdict verdict, final Path dir)
      throws IOException {
    Files.write(dir.resolve("expectations.txt"), expected.stream().map(e -> e.what() + " | " + e.name() + " "
        + e.txns() + (e.findingKind() == null ? "" : " | finding " + e.findingKind() + " on " + e.findingKey()))
        .toList());
    final List<SoakCheck.PublishedFinding> findings = new ArrayList<>();
    if (verdict != null) {
      for (final VerdictFinding f : verdict.getReport().getFindings()) {
        findings.add(new SoakCheck.PublishedFinding(f.getKind(), f.getKey(), f.getCount(), f.getTxns()));
      }
      bench.row(label, "final verdict", verdict.getLevels().stream()
          .map(l -> l.getLevel() + " " + l.getVerdict()).collect(java.util.stream.Collectors.joining(", ")));
      bench.row(label, "final verdict: anomalies by name; findings by kind",
          verdict.getCounts().getAnomaliesByName() + "; " + verdict.getCounts().getFindingsByKind());
    }
    final SoakCheck.Outcome o = SoakCheck.compare(expected, published, findings, TOLERATED_FINDINGS,
        verdict != null);
    out.printf("%n#### %s: injected against published (%s)%n%n", label, run.ending());
    out.println(o.markdown());
    final long injected = expected.size();
    bench.row(label, "injected anomalies published once under their names (issue 10 item 8)",
        (o.pass() ? "PASS" : "FAIL") + ", " + injected + " injected, table above");
    if (!o.pass()) {
      bench.fail(label + ": published anomalies differ from the injected ones");
    }
    if (run.committed() < run.target()) {
      bench.fail(label + ": " + run.ending());
    }
  }

  private static OptionalLong optional(final Long v) {
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  private static String rate(final OptionalDouble v) {
    return v.isPresent() ? String.format(Locale.ROOT, "%,.0f", v.getAsDouble()) : "n/a";
  }
}
