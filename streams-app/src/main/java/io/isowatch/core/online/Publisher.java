package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyFactory;
import io.isowatch.core.check.AnomalyRead;
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
  /**
   * While a cut replays retained transactions: records nothing, since the state being replaced
   * reported all of it already (docs/segmentation.md, "How").
   */
  private boolean muted;

  Publisher(final OnlineState s) {
    this.s = s;
    this.factory = new AnomalyFactory(s, s.options.rtSkewMicros());
    this.enabled = s.online.publishEvents();
  }

  void mute(final boolean on) {
    muted = on;
  }

  boolean muted() {
    return muted;
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

  /**
   * Takes over events a replaced publisher had not handed out yet (a cut in the middle of a call),
   * ahead of any this one holds, so that the call returns them in the order they were published.
   */
  void carry(final List<OnlineEvent> earlier) {
    if (earlier.isEmpty()) {
      return;
    }
    final List<OnlineEvent> all = new ArrayList<>(earlier.size() + events.size());
    all.addAll(earlier);
    all.addAll(events);
    events = all;
  }

  void event(final OnlineEvent e) {
    if (enabled) {
      events.add(e);
    }
  }

  void read(final ReadAnomaly a) {
    if (muted) {
      return;
    }
    s.anomalies.addRead(a.kind().name(), a.reader(), a.opIndex(), publish(() -> factory.read(a)));
  }

  /** A lost update of {@code a} and {@code b} on {@code version}; listed in canonical order. */
  void lostUpdate(final int version, final int a, final int b) {
    if (muted) {
      return;
    }
    final boolean ordered = PiOrder.compareCanonical(s.txns, s.sessions, a, b) < 0;
    final int first = ordered ? a : b;
    final int second = ordered ? b : a;
    s.anomalies.addLostUpdate(first, second, publish(() -> factory.lostUpdate(version, first, second)));
  }

  void cycle(final List<CycleStep> steps) {
    if (muted) {
      return;
    }
    s.anomalies.addCycle(factory.cycleName(steps), publish(() -> factory.cycle(steps)));
  }

  /**
   * A read of a version older than the retained horizon (docs/segmentation.md): a typed, counted
   * finding with the levels it leaves undecided; with {@code violatesSser} (real time proves it)
   * also a {@code StaleReadBeyondHorizon} anomaly that violates SSER.
   */
  void staleRead(final int reader, final int op, final String key, final Long value, final boolean violatesSser) {
    if (muted) {
      return;
    }
    final HorizonSummary h = s.summary;
    final Transaction t = s.txns.txn(reader);
    final java.util.EnumSet<Level> undecided = java.util.EnumSet.copyOf(s.options.levels().isEmpty()
        ? java.util.EnumSet.noneOf(Level.class) : s.options.levels());
    if (violatesSser) {
      undecided.remove(Level.SSER);
    }
    h.staleReads++;
    h.staleUndecided.addAll(undecided);
    final String read = "transaction " + t.id() + " read " + key + "=" + value;
    finding(FindingKind.STALE_READ_BEYOND_HORIZON, key, t, read + ", a version older than the retained horizon "
        + "(its writer and the transaction that overwrote it were pruned)"
        + (violatesSser ? "; it started after that overwrite ended, which violates SSER" : "")
        + "; whether it is allowed at " + undecided + " depends on forgotten transactions", undecided);
    if (violatesSser) {
      h.staleViolatesSser = true;
      final String explanation = read + ", but " + key + "=" + value + " had been overwritten by a transaction "
          + "that ended at or before " + h.bound + " µs, before " + t.id() + " started (" + t.start()
          + " µs): " + t.id() + " must precede that transaction (it read the version it replaced) and follow it "
          + "in real time, a contradiction. The overwriting transaction was pruned beyond the horizon.";
      s.anomalies.addCycle("StaleReadBeyondHorizon", publish(() -> new Anomaly("G-single-realtime",
          "StaleReadBeyondHorizon", java.util.EnumSet.of(Level.SSER), List.of(t), List.of(), explanation,
          new AnomalyRead(t.id(), op, key, value))));
    }
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
    if (muted) {
      return;
    }
    s.findings.add(kind, key, t == null ? null : t.id(), t == null ? 0 : t.line(), message);
    event(new OnlineEvent.FindingPublished(kind, key, t == null ? null : t.id(), message));
  }

  void finding(final FindingKind kind, final String key, final Transaction t, final String message,
      final Set<Level> levels) {
    if (muted) {
      return;
    }
    s.findings.add(kind, key, t.id(), t.line(), message, levels);
    event(new OnlineEvent.FindingPublished(kind, key, t.id(), message));
  }
}
