package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * The verdict last published for each requested level, so that a change is published once, as
 * {@link OnlineEvent.VerdictChanged}. Every level starts SATISFIED (the verdict of an empty
 * history). Survives cuts and is checkpointed.
 */
final class PublishedVerdicts {
  private final Map<Level, Verdict> published = new EnumMap<>(Level.class);
  /** The requested levels strongest first, the order VerdictChanged events were always published in. */
  private final Set<Level> strongestFirst;

  /** Each level at its {@code restored} verdict, or SATISFIED when it has none (a new level). */
  PublishedVerdicts(final Set<Level> levels, final Map<Level, Verdict> restored) {
    // Ordered once: the levels an engine checks never change, and publishChanges runs per transaction.
    this.strongestFirst = Level.strongestFirst(levels);
    for (final Level level : levels) {
      published.put(level, restored.getOrDefault(level, Verdict.SATISFIED));
    }
  }

  /** Publishes, through the engine's publisher, each level whose verdict changed since the last call. */
  void publishChanges(final CheckingEngine engine) {
    // Level by level, no map built: this runs after every accepted transaction.
    final ResultBuilder results = engine.results;
    final boolean everyLevel = results.everyLevelViolated();
    // The weak levels are incremental; where their check falls back to the whole history, it may lag
    // between two transactions (see WeakVerdicts).
    results.allowLag(true);
    for (final Level level : strongestFirst) {
      final Verdict v = results.verdict(level, everyLevel);
      final Verdict before = published.put(level, v);
      if (before != v) {
        engine.out.event(new OnlineEvent.VerdictChanged(level, before, v,
            v == Verdict.UNKNOWN ? results.reason(level) : null));
      }
    }
    results.allowLag(false);
  }

  /** The verdicts as last published, for a checkpoint. */
  Map<Level, Verdict> asMap() {
    return Collections.unmodifiableMap(published);
  }
}
