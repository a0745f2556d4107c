package io.isowatch.streams.ui;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.TenantVerdict;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The web UI's view model: what the checker published, kept bounded in memory. Fed by {@link
 * UiFeed} from the app's own output topics (read committed), read by the HTTP handlers; every method
 * is thread-safe (one lock, held only for in-memory work).
 *
 * <ul>
 *   <li>the last {@code maxAnomalies} anomalies across tenants, by arrival, deduplicated by {@code
 *       uniqueId} ({@code anomalyId} on records without one; an at-least-once republication shows
 *       once, two anomalies of the same transactions on two keys show twice); a retraction marks
 *       its anomaly;
 *   <li>the latest verdict per tenant;
 *   <li>per tenant, the last {@value #SERIES_POINTS} throughput points (transactions checked per
 *       second between two consecutive verdicts) and detection latencies (one per anomaly).
 * </ul>
 */
public final class UiState implements UiFeed.Sink {
  /** Points kept per tenant and series. */
  public static final int SERIES_POINTS = 120;

  /** One point of a tenant's throughput: transactions checked per second up to {@code atMicros}. */
  public record ThroughputPoint(long atMicros, double txnPerSecond) {}

  /** One point of a tenant's detection latency: an anomaly detected at {@code atMicros}. */
  public record LatencyPoint(long atMicros, double seconds, String id, String anomalyId, String name) {}

  /** A tenant as the overview shows it. */
  public record TenantView(String tenant, Optional<TenantVerdict> verdict, long anomaliesSeen,
      List<ThroughputPoint> throughput, List<LatencyPoint> latency) {}

  /** Filters of the feed; an empty field matches everything. */
  public record Filter(Optional<String> type, Optional<Level> level, Optional<String> tenant) {
    public static Filter none() {
      return new Filter(Optional.empty(), Optional.empty(), Optional.empty());
    }

    boolean matches(final Anomaly a) {
      return type.map(t -> t.equals(a.getType()) || t.equals(a.getName())).orElse(true)
          && level.map(l -> a.getViolates().contains(l)).orElse(true)
          && tenant.map(t -> t.equals(a.getTenant())).orElse(true);
    }
  }

  /** The values the feed's filters can take, from the anomalies held. */
  public record Facets(List<String> types, List<String> tenants, List<Level> levels) {}

  private final int maxAnomalies;
  private final Object lock = new Object();
  /** {@link AnomalyIds#identity} (uniqueId, or anomalyId on older records) → anomaly, oldest first. */
  private final LinkedHashMap<String, Anomaly> anomalies = new LinkedHashMap<>();
  private final Map<String, Tenant> tenants = new TreeMap<>();
  private long anomaliesReceived;

  /** @param maxAnomalies anomalies kept; older ones are dropped first */
  public UiState(final int maxAnomalies) {
    if (maxAnomalies < 1) {
      throw new IllegalArgumentException("maxAnomalies must be positive: " + maxAnomalies);
    }
    this.maxAnomalies = maxAnomalies;
  }

  /**
   * Takes a published anomaly; a second copy of the same id is ignored. A retraction ({@code
   * retraction} set) replaces the anomaly it withdraws, in place, so that the feed shows it as
   * retracted, and no longer counts for its tenant.
   */
  @Override
  public void onAnomaly(final Anomaly a) {
    synchronized (lock) {
      final String id = AnomalyIds.identity(a);
      if (a.getRetraction() != null) {
        final Anomaly before = anomalies.get(id);
        if (before != null && before.getRetraction() == null) {
          anomalies.put(id, a);
          tenant(a.getTenant()).anomalies--;
        }
        return;
      }
      if (anomalies.containsKey(id)) {
        return;
      }
      anomalies.put(id, a);
      anomaliesReceived++;
      if (anomalies.size() > maxAnomalies) {
        final Iterator<String> oldest = anomalies.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      final Tenant t = tenant(a.getTenant());
      t.anomalies++;
      if (a.getDetectionLatencyMicros() != null) {
        add(t.latency, new LatencyPoint(a.getDetectedAtMicros(), a.getDetectionLatencyMicros() / 1e6,
            id, a.getAnomalyId(), displayName(a)));
      }
    }
  }

  /** Takes a published verdict; an older one than the tenant's latest (a replay) is ignored. */
  @Override
  public void onVerdict(final TenantVerdict v) {
    synchronized (lock) {
      final Tenant t = tenant(v.getTenant());
      final TenantVerdict previous = t.verdict;
      if (previous != null && v.getAtMicros() <= previous.getAtMicros()) {
        return;
      }
      t.verdict = v;
      if (previous != null) {
        final long checked = v.getCounts().getTransactionsChecked() - previous.getCounts().getTransactionsChecked();
        final long micros = v.getAtMicros() - previous.getAtMicros();
        // A restarted checker counts from its stores again; a drop is not a negative rate.
        if (checked >= 0) {
          add(t.throughput, new ThroughputPoint(v.getAtMicros(), checked * 1e6 / micros));
        }
      }
    }
  }

  /** Every tenant seen, by name. */
  public List<TenantView> tenants() {
    synchronized (lock) {
      final List<TenantView> out = new ArrayList<>();
      tenants.forEach((name, t) -> out.add(new TenantView(name, Optional.ofNullable(t.verdict), t.anomalies,
          List.copyOf(t.throughput), List.copyOf(t.latency))));
      return out;
    }
  }

  /** The anomalies held that match, newest first, at most {@code limit}. */
  public List<Anomaly> anomalies(final Filter filter, final int limit) {
    synchronized (lock) {
      final List<Anomaly> out = new ArrayList<>();
      final List<Anomaly> all = new ArrayList<>(anomalies.values());
      for (int i = all.size() - 1; i >= 0 && out.size() < limit; i--) {
        if (filter.matches(all.get(i))) {
          out.add(all.get(i));
        }
      }
      return out;
    }
  }

  /** How many held anomalies match. */
  public int count(final Filter filter) {
    synchronized (lock) {
      return (int) anomalies.values().stream().filter(filter::matches).count();
    }
  }

  /** @param id the anomaly's {@link AnomalyIds#identity} */
  public Optional<Anomaly> anomaly(final String id) {
    synchronized (lock) {
      return Optional.ofNullable(anomalies.get(id));
    }
  }

  /** Anomalies received since start, duplicates not counted (may exceed those held). */
  public long anomaliesReceived() {
    synchronized (lock) {
      return anomaliesReceived;
    }
  }

  public Facets facets() {
    synchronized (lock) {
      final TreeSet<String> types = new TreeSet<>();
      final TreeSet<String> names = new TreeSet<>();
      // Weakest first, as the text report and the JSON report list them (the Avro symbols are in the
      // order they were added); OTHER (a level newer than this UI) last.
      final TreeSet<Level> levels = new TreeSet<>(WEAKEST_FIRST);
      for (final Anomaly a : anomalies.values()) {
        types.add(a.getType());
        if (a.getName() != null) {
          names.add(a.getName());
        }
        levels.addAll(a.getViolates());
      }
      final List<String> all = new ArrayList<>(names);
      all.addAll(types);
      return new Facets(all, List.copyOf(tenants.keySet()), List.copyOf(levels));
    }
  }

  /**
   * The order the UI lists levels in: weakest first, as the text and JSON reports do (the verdict
   * records list them strongest first); OTHER, a level newer than this UI, last.
   */
  public static final Comparator<Level> WEAKEST_FIRST = Comparator
      .comparingInt((Level l) -> strength(l) < 0 ? Integer.MAX_VALUE : strength(l)).thenComparing(Level::ordinal);

  /** The level's place in the hierarchy (docs/levels.md), weakest 0; -1 for OTHER. */
  private static int strength(final Level level) {
    final io.isowatch.core.check.Level core = io.isowatch.schemas.avro.LevelRecords.toCore(level);
    return core == null ? -1 : core.ordinal();
  }

  /** The MTC name, or the type when no named pattern matches. */
  public static String displayName(final Anomaly a) {
    return a.getName() == null ? a.getType() : a.getName();
  }

  private Tenant tenant(final String name) {
    return tenants.computeIfAbsent(name, n -> new Tenant());
  }

  private static <T> void add(final Deque<T> series, final T point) {
    series.addLast(point);
    if (series.size() > SERIES_POINTS) {
      series.removeFirst();
    }
  }

  /** Mutable per-tenant state, guarded by {@link #lock}. */
  private static final class Tenant {
    private TenantVerdict verdict;
    private long anomalies;
    private final Deque<ThroughputPoint> throughput = new ArrayDeque<>();
    private final Deque<LatencyPoint> latency = new ArrayDeque<>();
  }
}
