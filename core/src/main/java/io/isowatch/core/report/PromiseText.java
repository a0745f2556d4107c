package io.isowatch.core.report;

import io.isowatch.core.check.Level;
import io.isowatch.core.profile.Promise;
import io.isowatch.core.profile.PromiseJudgement;

/**
 * The promise section of the text report: what was promised, whether it was broken, and which
 * violated levels lie outside it ("weaker than X but allowed"), with the anomaly the profile names
 * for each and the sources of the profile.
 */
final class PromiseText {
  private PromiseText() {}

  static String section(final PromiseJudgement j) {
    final Promise p = j.promise();
    final StringBuilder sb = new StringBuilder();
    sb.append("Promise ").append(p.spec()).append(" (").append(p.database()).append(' ').append(p.namedLevel())
        .append("): ").append(j.outcome()).append('\n');
    sb.append("  promises: ").append(p.promised().isEmpty() ? "no level IsoWatch decides" : joined(p.promised()))
        .append('\n');
    switch (j.outcome()) {
      case BROKEN -> sb.append("  PROMISE BROKEN: ").append(joined(j.broken())).append(" VIOLATED\n");
      case UNDECIDED -> sb.append("  promise undecided: ").append(joined(j.undecided())).append(" UNKNOWN\n");
      case KEPT -> sb.append("  promise kept: every promised level checked is SATISFIED\n");
    }
    if (!j.unchecked().isEmpty()) {
      sb.append("  not checked: ").append(joined(j.unchecked())).append('\n');
    }
    if (!j.allowed().isEmpty()) {
      sb.append(j.weakerThan().map(x -> "  weaker than " + x + " but allowed: ").orElse("  also violated, not promised: "))
          .append(joined(j.allowed())).append(" VIOLATED\n");
      for (final Level l : Notation.ordered(j.allowed())) {
        final String why = p.notGiven().get(l);
        if (why != null) {
          sb.append("    ").append(l).append(" is not promised: ").append(why).append('\n');
        }
      }
    }
    if (p.certainty() == Promise.Certainty.UNCERTAIN) {
      sb.append("  this mapping is uncertain");
      sb.append(p.note().isEmpty() ? "\n" : ": " + p.note() + "\n");
    } else if (!p.note().isEmpty()) {
      sb.append("  note: ").append(p.note()).append('\n');
    }
    sb.append("  sources: ").append(String.join("; ", p.sources())).append('\n');
    return sb.toString();
  }

  /** Weakest first, as the verdicts are listed. */
  private static String joined(final java.util.Collection<Level> levels) {
    return String.join(", ", Notation.ordered(levels).stream().map(Level::name).toList());
  }
}
