package io.isowatch.core.report;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.profile.PromiseJudgement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The human-readable report of one check, the default output of {@code isowatch check}.
 *
 * <p>Sections, in order: the overall verdict and one line per requested level (with the reason of
 * each UNKNOWN); each listed anomaly with its name, type, violated levels, transactions and their
 * raw ops, the cycle as {@code T1 -WR(x=5)-> T2 -RW(x=5)-> T1} and the engine's explanation, headed
 * by a note when the list was truncated; the findings; the stats. Plain text with {@code \n} line ends; ANSI
 * colours on the verdict words only when asked for (the CLI asks when stdout is a terminal).
 */
public final class TextReport {
  private static final String INDENT = "    ";
  private static final String RESET = "\u001b[0m";
  private static final int VERDICT_WIDTH = Verdict.SATISFIED.name().length();

  private final boolean color;

  /** @param color whether to colour verdict words with ANSI escapes */
  public TextReport(final boolean color) {
    this.color = color;
  }

  /** The whole report. */
  public String render(final CheckResult result) {
    return render(result, null);
  }

  /**
   * The whole report read against a promise ({@code isowatch check --promise}): after the verdicts,
   * a section that separates "promise broken" from "weaker than X but allowed", and each anomaly's
   * headline says which of the two it is. {@code judgement} null: the report without a promise.
   */
  public String render(final CheckResult result, final PromiseJudgement judgement) {
    final StringBuilder sb = new StringBuilder();
    verdicts(sb, result, judgement);
    if (judgement != null) {
      sb.append('\n').append(PromiseText.section(judgement));
    }
    anomalies(sb, result, judgement);
    findings(sb, result.findings());
    stats(sb, result.stats());
    return sb.toString();
  }

  /** The verdict all levels add up to: VIOLATED beats UNKNOWN beats SATISFIED. */
  private static Verdict overall(final Map<Level, Verdict> verdicts) {
    if (verdicts.containsValue(Verdict.VIOLATED)) {
      return Verdict.VIOLATED;
    }
    return verdicts.containsValue(Verdict.UNKNOWN) ? Verdict.UNKNOWN : Verdict.SATISFIED;
  }

  private void verdicts(final StringBuilder sb, final CheckResult result, final PromiseJudgement judgement) {
    sb.append("IsoWatch check: ").append(paint(overall(result.verdicts())));
    if (judgement != null) {
      // The headline adds up every level checked; with a promise, the exit code follows the promise,
      // so the first line says both rather than "VIOLATED" over a promise that was kept.
      sb.append(" (promise ").append(judgement.promise().spec()).append(": ").append(judgement.outcome()).append(')');
    }
    sb.append('\n');
    for (final Level level : Notation.ordered(result.verdicts().keySet())) {
      final Verdict v = result.verdicts().get(level);
      sb.append(String.format(Locale.ROOT, "  %-5s ", level.name())).append(paint(v));
      final String reason = result.reasons().get(level);
      if (v == Verdict.UNKNOWN && reason != null) {
        // Padded by hand: escape codes would throw off a format width.
        sb.append(" ".repeat(VERDICT_WIDTH - v.name().length())).append("  (").append(reason).append(')');
      }
      sb.append('\n');
    }
  }

  private static void anomalies(final StringBuilder sb, final CheckResult result, final PromiseJudgement judgement) {
    final List<Anomaly> anomalies = result.anomalies();
    sb.append('\n');
    if (anomalies.isEmpty()) {
      sb.append("No anomalies.\n");
      return;
    }
    sb.append("Anomalies: ");
    if (result.stats().anomaliesTruncated()) {
      // First, not last: the reader should know the list is partial before reading it.
      sb.append(truncationNote(anomalies.size(), found(result.stats())));
    } else {
      sb.append(anomalies.size());
    }
    sb.append('\n');
    for (int i = 0; i < anomalies.size(); i++) {
      anomaly(sb, i + 1, anomalies.get(i), judgement);
    }
  }

  /** The exact number of anomalies found, which the listed ones may fall short of. */
  private static long found(final CheckStats stats) {
    return stats.anomaliesByName().values().stream().mapToLong(Long::longValue).sum();
  }

  private static String truncationNote(final int shown, final long found) {
    return "showing " + shown + " of " + found + "; raise --max-anomalies to see more";
  }

  private static void anomaly(final StringBuilder sb, final int index, final Anomaly a,
      final PromiseJudgement judgement) {
    sb.append("\n[").append(index).append("] ").append(Notation.headline(a));
    if (judgement != null) {
      sb.append(judgement.breaks(a) ? "  [PROMISE BROKEN]" : "  [allowed by the promise]");
    }
    sb.append('\n');
    sb.append(INDENT).append("transactions:\n");
    for (final Transaction t : a.transactions()) {
      sb.append(INDENT).append("  ").append(transaction(t)).append('\n');
    }
    final String cycle = Notation.cycle(a);
    if (!cycle.isEmpty()) {
      sb.append(INDENT).append("cycle: ").append(cycle).append('\n');
    }
    if (a.explanation() != null && !a.explanation().isBlank()) {
      sb.append(INDENT).append("explanation:\n");
      a.explanation().strip().lines().forEach(l -> sb.append(INDENT).append("  ").append(l).append('\n'));
    }
  }

  /** {@code s1-3 [r(x,0), w(x,1)]}, then the status unless committed and the times when known. */
  private static String transaction(final Transaction t) {
    return t + Notation.statusAndTimes(t);
  }

  private static void findings(final StringBuilder sb, final List<Finding> findings) {
    sb.append('\n');
    if (findings.isEmpty()) {
      sb.append("No findings.\n");
      return;
    }
    sb.append("Findings: ").append(findings.size()).append('\n');
    for (final Finding f : findings) {
      sb.append("  ").append(f.kind()).append(" (").append(f.kind().severity().name().toLowerCase(Locale.ROOT));
      if (!f.levels().isEmpty()) {
        sb.append("; ").append(Notation.joined(f.levels()));
      }
      sb.append(") count ").append(f.count());
      if (f.key() != null) {
        sb.append(" key ").append(f.key());
      }
      sb.append('\n');
      if (!f.txns().isEmpty()) {
        sb.append(INDENT).append("txns: ").append(String.join(", ", f.txns())).append('\n');
      }
      if (!f.lines().isEmpty()) {
        sb.append(INDENT).append("lines: ")
            .append(f.lines().stream().map(String::valueOf).collect(Collectors.joining(", "))).append('\n');
      }
      sb.append(INDENT).append(f.message()).append('\n');
    }
  }

  private static void stats(final StringBuilder sb, final CheckStats s) {
    sb.append("\nStats\n");
    stat(sb, "transactions", s.transactions());
    stat(sb, "committed", s.committed());
    stat(sb, "aborted", s.aborted());
    stat(sb, "unknown promoted", s.unknownPromoted());
    stat(sb, "unknown ignored", s.unknownIgnored());
    stat(sb, "sessions", s.sessions());
    stat(sb, "keys", s.keys());
    stat(sb, "operations", s.operations());
    stat(sb, "long RMW txns", s.longRmwTransactions());
    stat(sb, "large read-only txns", s.largeReadOnlyTransactions());
    stat(sb, "edges", s.edges());
    // Sorted so that two reports of the same history read the same.
    final String byName = new TreeMap<>(s.anomaliesByName()).entrySet().stream()
        .map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "));
    stat(sb, "anomalies", found(s) + (byName.isEmpty() ? "" : " (" + byName + ")"));
    stat(sb, "truncated", s.anomaliesTruncated() ? "yes" : "no");
    stat(sb, "seconds", String.format(Locale.ROOT, "%.3f", s.seconds()));
  }

  private static void stat(final StringBuilder sb, final String label, final Object value) {
    sb.append(String.format(Locale.ROOT, "  %-22s%s", label, value)).append('\n');
  }

  private String paint(final Verdict v) {
    if (!color) {
      return v.name();
    }
    final String code = switch (v) {
      case SATISFIED -> "\u001b[32m";
      case VIOLATED -> "\u001b[31m";
      case UNKNOWN -> "\u001b[33m";
    };
    return code + v.name() + RESET;
  }
}
