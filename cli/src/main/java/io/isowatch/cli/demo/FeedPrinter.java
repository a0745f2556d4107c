package io.isowatch.cli.demo;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.ui.UiFeed;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Prints what the checker publishes, read back as any consumer would (the web UI's {@link UiFeed}:
 * {@code read_committed}, from the beginning), to the terminal: every anomaly that breaks its
 * tenant's promise in full, every other anomaly as its headline, and, when {@link
 * #printStatusIfDue()} finds it due, a status line per tenant from the latest verdicts.
 */
public final class FeedPrinter implements UiFeed.Sink, AutoCloseable {
  private final AnomalyLines lines;
  private final Map<String, DemoTenant> tenants;
  private final PrintWriter out;
  private final Duration statusEvery;
  private final Map<String, TenantVerdict> verdicts = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> anomalies = new ConcurrentHashMap<>();
  private UiFeed feed;
  private long nextStatus;

  private FeedPrinter(final AnomalyLines lines, final Map<String, DemoTenant> tenants, final PrintWriter out,
      final Duration statusEvery) {
    this.lines = lines;
    this.tenants = tenants;
    this.out = out;
    this.statusEvery = statusEvery;
    this.nextStatus = System.nanoTime() + statusEvery.toNanos();
  }

  /** Starts printing from the beginning of the anomalies and verdicts topics. */
  public static FeedPrinter start(final String bootstrap, final URI registry, final Map<String, DemoTenant> tenants,
      final String uiBase, final PrintWriter out, final Duration statusEvery) {
    final FeedPrinter printer = new FeedPrinter(new AnomalyLines(tenants, uiBase), tenants, out, statusEvery);
    final Topics topics = Topics.defaults();
    printer.feed = UiFeed.start("isowatch-demo-feed", Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new AvroSerdes(AvroSerdeConfig.development(registry)).valueSerde(SpecificRecord.class).deserializer(),
        topics.anomalies().name(), topics.verdicts().name(), printer);
    return printer;
  }

  @Override
  public void onAnomaly(final Anomaly a) {
    anomalies.computeIfAbsent(a.getTenant(), t -> new AtomicLong()).incrementAndGet();
    final List<String> text = lines.format(a);
    final DemoTenant tenant = tenants.get(a.getTenant());
    final boolean full = tenant == null
        || tenant.broken(a.getViolates().stream().map(Enum::name).toList());
    synchronized (out) {
      (full ? text : text.subList(0, 1)).forEach(out::println);
      out.flush();
    }
  }

  @Override
  public void onVerdict(final TenantVerdict v) {
    verdicts.put(v.getTenant(), v);
  }

  /** Prints the status lines when {@code statusEvery} has passed since the last ones. */
  public void printStatusIfDue() {
    if (System.nanoTime() >= nextStatus) {
      printStatus();
      nextStatus = System.nanoTime() + statusEvery.toNanos();
    }
  }

  /** One line per tenant: transactions checked, anomalies, and the verdict of each level. */
  public void printStatus() {
    final Map<String, TenantVerdict> latest = new TreeMap<>(verdicts);
    synchronized (out) {
      for (final TenantVerdict v : latest.values()) {
        out.println(status(v));
      }
      out.flush();
    }
  }

  /** The status line of one verdict. */
  static String status(final TenantVerdict v) {
    final String levels = v.getLevels().stream().map(FeedPrinter::level).collect(Collectors.joining("  "));
    final long anomalies = v.getCounts().getAnomaliesByName().values().stream().mapToLong(Long::longValue).sum();
    return String.format(Locale.ROOT, "-- %-12s %,9d transactions checked  %,5d anomalies  %s",
        v.getTenant(), v.getCounts().getTransactionsChecked(), anomalies, levels);
  }

  private static String level(final LevelVerdict l) {
    return l.getLevel().name() + " " + l.getVerdict().name();
  }

  /** Anomalies printed so far, by tenant. */
  public Map<String, Long> anomaliesByTenant() {
    final Map<String, Long> counts = new TreeMap<>();
    anomalies.forEach((t, n) -> counts.put(t, n.get()));
    return counts;
  }

  /** Stops the feed's consumer thread and waits for it. */
  @Override
  public void close() {
    feed.close();
  }
}
