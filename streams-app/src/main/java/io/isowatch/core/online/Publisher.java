package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyFactory;
import io.isowatch.core.check.CycleStep;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.ReadAnomaly;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Records what the engine finds (in the {@code anomalies} store and the findings) and, when
 * events are on, publishes it. With events off, anomalies are built only if a result lists them.
 */
final class Publisher {
  private final OnlineState s;
  private final AnomalyFactory factory;
  private final boolean enabled;
  private List<OnlineEvent> events = new ArrayList<>();

  Publisher(final OnlineState s) {
    this.s = s;
    this.factory = new AnomalyFactory(s, s.options.rtSkewMicros());
    this.enabled = s.online.publishEvents();
  }

  /** The events published since the last call. */
  List<OnlineEvent> take() {
    if (events.isEmpty()) {
      return List.of();
    }
    final List<OnlineEvent> out = events;
    events = new ArrayList<>();
    return out;
  }

  void event(final OnlineEvent e) {
    if (enabled) {
      events.add(e);
    }
  }

  void read(final ReadAnomaly a) {
    s.anomalies.addRead(a.kind().name(), a.reader(), a.opIndex(), publish(() -> factory.read(a)));
  }

  /** A lost update of {@code a} and {@code b} on {@code version}; listed in canonical order. */
  void lostUpdate(final int version, final int a, final int b) {
    final boolean ordered = PiOrder.compareCanonical(s.txns, s.sessions, a, b) < 0;
    final int first = ordered ? a : b;
    final int second = ordered ? b : a;
    s.anomalies.addLostUpdate(first, second, publish(() -> factory.lostUpdate(version, first, second)));
  }

  void cycle(final List<CycleStep> steps) {
    s.anomalies.addCycle(factory.cycleName(steps), publish(() -> factory.cycle(steps)));
  }

  private Supplier<Anomaly> publish(final Supplier<Anomaly> build) {
    if (!enabled) {
      return build;
    }
    final Anomaly a = build.get();
    events.add(new OnlineEvent.AnomalyPublished(a));
    return () -> a;
  }

  void finding(final FindingKind kind, final String key, final Transaction t, final String message) {
    s.findings.add(kind, key, t == null ? null : t.id(), t == null ? 0 : t.line(), message);
    event(new OnlineEvent.FindingPublished(kind, key, t == null ? null : t.id(), message));
  }

  void finding(final FindingKind kind, final String key, final Transaction t, final String message,
      final Set<Level> levels) {
    s.findings.add(kind, key, t.id(), t.line(), message, levels);
    event(new OnlineEvent.FindingPublished(kind, key, t.id(), message));
  }
}
