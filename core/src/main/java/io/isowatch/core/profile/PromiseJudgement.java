package io.isowatch.core.profile;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A check's verdicts read against a {@link Promise}: which promised levels are broken (VIOLATED),
 * which are undecided (UNKNOWN), which were not checked, and which stronger levels are violated but
 * allowed ("weaker than X but allowed": not an alarm).
 *
 * @param promise the promise judged
 * @param broken promised levels that are VIOLATED: the promise is broken
 * @param undecided promised levels that are UNKNOWN: the promise could not be confirmed
 * @param unchecked promised levels the check did not decide (the streaming checker does not carry
 *     every level yet); neither kept nor broken
 * @param allowed levels outside the promise that are VIOLATED: allowed by the promise
 */
public record PromiseJudgement(
    Promise promise, Set<Level> broken, Set<Level> undecided, Set<Level> unchecked, Set<Level> allowed) {

  /** The judgement of a promise as a whole. */
  public enum Outcome {
    /** Every promised level that was checked is SATISFIED. */
    KEPT,
    /** Some promised level is VIOLATED. */
    BROKEN,
    /** None is VIOLATED, but some is UNKNOWN. */
    UNDECIDED
  }

  public PromiseJudgement {
    broken = copy(broken);
    undecided = copy(undecided);
    unchecked = copy(unchecked);
    allowed = copy(allowed);
  }

  /** Judges {@code verdicts} (one per decided level) against {@code promise}. */
  public static PromiseJudgement of(final Promise promise, final Map<Level, Verdict> verdicts) {
    final Set<Level> promised = promise.promised();
    final EnumSet<Level> broken = EnumSet.noneOf(Level.class);
    final EnumSet<Level> undecided = EnumSet.noneOf(Level.class);
    final EnumSet<Level> unchecked = EnumSet.noneOf(Level.class);
    final EnumSet<Level> allowed = EnumSet.noneOf(Level.class);
    for (final Level l : promised) {
      final Verdict v = verdicts.get(l);
      if (v == null) {
        unchecked.add(l);
      } else if (v == Verdict.VIOLATED) {
        broken.add(l);
      } else if (v == Verdict.UNKNOWN) {
        undecided.add(l);
      }
    }
    verdicts.forEach((l, v) -> {
      if (v == Verdict.VIOLATED && !promised.contains(l)) {
        allowed.add(l);
      }
    });
    return new PromiseJudgement(promise, broken, undecided, unchecked, allowed);
  }

  /** BROKEN beats UNDECIDED beats KEPT. */
  public Outcome outcome() {
    if (!broken.isEmpty()) {
      return Outcome.BROKEN;
    }
    return undecided.isEmpty() ? Outcome.KEPT : Outcome.UNDECIDED;
  }

  /**
   * The X of "weaker than X but allowed": the weakest violated level outside the promise, when no
   * promised level is broken (with a broken promise there is nothing to reassure about).
   */
  public Optional<Level> weakerThan() {
    return broken.isEmpty() ? Level.weakestFirst(allowed).stream().findFirst() : Optional.empty();
  }

  /** Whether {@code anomaly} breaks the promise (it violates a promised level) rather than being allowed by it. */
  public boolean breaks(final Anomaly anomaly) {
    return promise.brokenBy(anomaly.violates());
  }

  private static Set<Level> copy(final Set<Level> s) {
    return Collections.unmodifiableSet(s.isEmpty() ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(s));
  }
}
