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

  /** Records a read anomaly; returns it as published, or null when events are off or muted. */
  Anomaly read(final ReadAnomaly a) {
    if (muted) {
      return null;
    }
    final Supplier<Anomaly> built = publish(() -> factory.read(a));
    s.anomalies.addRead(a.kind().name(), a.reader(), a.opIndex(), built);
    return enabled ? built.get() : null;
  }

  /** Publishes the retraction of an anomaly published earlier (already removed from the log). */
  void retract(final Anomaly a, final String causeTxn, final String reason) {
    if (!muted) {
      event(new OnlineEvent.AnomalyRetracted(a, causeTxn, reason));
    }
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
   * A read of a value no retained transaction wrote, which the summary knows as retired
   * (docs/segmentation.md): a typed, counted finding with the levels it leaves undecided; with
   * {@code violatesSser} (real time proves it) also a {@code StaleReadBeyondHorizon} anomaly that
   * violates SSER. {@code overwritten}: the overwritten category answered (not the other one).
   * {@code certain}: an exact run-set of retired versions holds it, and the texts state the pruned
   * writer as a fact. Otherwise only a filter answered, and the texts say what the filter does not
   * know: its answer is a "probably", wrong with probability at most {@code falsePositive}, and then
   * the value was never written.
   */
  void staleRead(final int reader, final int op, final String key, final Long value, final boolean overwritten,
      final boolean certain, final double falsePositive, final boolean violatesSser) {
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
    final String p = probability(falsePositive);
    final String read = "transaction " + t.id() + " read " + key + "=" + value;
    final String how = overwritten ? " and then overwritten, or was an aborted or intermediate write" : "";
    finding(FindingKind.STALE_READ_BEYOND_HORIZON, key, t, read + ", which no retained transaction wrote; "
        + (certain
            ? "the exact record of retired versions shows this version was written by a transaction pruned beyond "
                + "the horizon" + how
            : "a filter of retired versions says this version was probably written by a transaction pruned "
                + "beyond the horizon" + how + " (false-positive probability at most " + p + "; if it is one, the "
                + "value was never written and the read is a ThinAirRead)")
        + (violatesSser ? "; " + (certain ? "it" : "either way it") + " violates SSER, as real time proves "
            + "(StaleReadBeyondHorizon)" : "")
        + "; whether it is allowed at " + undecided + " depends on forgotten transactions", undecided);
    if (violatesSser) {
      h.staleViolatesSser = true;
      final String realTime = "Every pruned transaction that overwrote a version of that category ended at or before "
          + h.bound + " µs, before " + t.id() + " started (" + t.start() + " µs). ";
      final String explanation = certain
          ? read + ", which no retained transaction wrote. The exact record of retired versions shows that " + key
              + "=" + value + " was written by a transaction pruned beyond the horizon and then overwritten by "
              + "transactions pruned as well, or was an aborted or intermediate write. " + realTime + "If it was "
              + "overwritten, " + t.id() + " must precede the overwriting transaction (it read the version that "
              + "transaction replaced) and follow it in real time, a contradiction; if it was an aborted or "
              + "intermediate write, its read violates every level. Either way SSER is violated."
          : read + ", which no retained transaction wrote. A filter of retired versions "
              + "says " + key + "=" + value + " was probably written and then overwritten by transactions pruned "
              + "beyond the horizon (false-positive probability at most " + p + "). Every pruned transaction that "
              + "overwrote a version in that filter ended at or before " + h.bound + " µs, before " + t.id()
              + " started (" + t.start() + " µs). If the filter is right, " + t.id() + " must precede the "
              + "overwriting transaction (it read the version that transaction replaced) and follow it in real "
              + "time, a contradiction; or " + key + "=" + value + " was an aborted or intermediate write (that "
              + "filter holds those too), whose read violates every level. If the filter is wrong, no transaction "
              + "ever wrote " + key + "=" + value + " and the read is a ThinAirRead, which violates SSER as well. "
              + "Either way SSER is violated.";
      s.anomalies.addCycle("StaleReadBeyondHorizon", publish(() -> new Anomaly("G-single-realtime",
          "StaleReadBeyondHorizon", java.util.EnumSet.of(Level.SSER), List.of(t), List.of(), explanation,
          new AnomalyRead(t.id(), op, key, value))));
    }
  }

  /** A probability in explanations: two significant digits, the same bytes on every machine. */
  static String probability(final double p) {
    return p == 0 ? "0" : String.format(java.util.Locale.ROOT, "%.2g", p);
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
    s.findings().add(kind, key, t == null ? null : t.id(), t == null ? 0 : t.line(), message,
        Level.shown(io.isowatch.core.check.Findings.defaultLevels(kind), s.options.levels()));
    event(new OnlineEvent.FindingPublished(kind, key, t == null ? null : t.id(), message));
  }

  void finding(final FindingKind kind, final String key, final Transaction t, final String message,
      final Set<Level> levels) {
    if (muted) {
      return;
    }
    s.findings().add(kind, key, t.id(), t.line(), message, Level.shown(levels, s.options.levels()));
    event(new OnlineEvent.FindingPublished(kind, key, t.id(), message));
  }
}
