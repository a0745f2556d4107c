package io.isowatch.core.solve;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Issue 14, item 3: decides the classic levels the engine left UNKNOWN because blind writes leave
 * version orders open, by {@link VersionOrderSearch}. It runs only then: when no level is
 * UNKNOWN, or no write was blind (mini-transactions), the engine's result is returned as is.
 *
 * <p>Levels are searched strongest first: a SATISFIED level settles the weaker ones (a graph
 * acyclic for SSER is acyclic for SER and SI), a VIOLATED one the stronger ones. A VIOLATED level
 * gets one anomaly whose cycles are such that every version order contains at least one of them
 * (no order is claimed to be the real one); an UNKNOWN one keeps the engine's reason unless the
 * search ran out of its budget, which the reason then says.
 */
public final class BlindWriteDecision {
  /** The anomaly name of a violation proved by the search (see docs/anomalies.md). */
  public static final String NAME = "NoAcyclicVersionOrder";
  /** The engine's anomalies about a read that violate every level. */
  private static final Set<String> READ_ANOMALIES = Set.of("ThinAirRead", "AbortedRead", "IntermediateRead",
      "FutureRead");
  /** Cycles written out in an explanation; the others are counted. */
  static final int SHOWN_CYCLES = 5;

  private BlindWriteDecision() {}

  /**
   * The engine's {@code result} with the levels left open by blind writes decided where the budget
   * allows: SSER, SER and SI searched when one of them is UNKNOWN ({@link #applies}), after reads
   * no writer explains are reported. The weak levels are not split by cases here: list-append's
   * use. A check of registers, whole or streamed, uses {@link #decideWhole}, so that the stream,
   * the in-order check and the whole-history check give one answer.
   */
  public static CheckResult decide(final History history, final CheckOptions options, final CheckResult result) {
    if (!applies(options, result)) {
      return result;
    }
    if (result.findings().stream().anyMatch(f -> f.kind() == FindingKind.NON_UNIQUE_WRITE)) {
      final CheckResult impossible = withReadsWithoutWriter(history, options, result);
      if (impossible != null) {
        return impossible;
      }
    }
    return decideClassic(history, options, result);
  }

  /**
   * {@link #decide} for a check of the whole history, which also decides the weak levels a value
   * written twice left open: reads no writer explains are reported whenever any level is UNKNOWN,
   * and PL2, RC, RA and CC are decided by cases of writers ({@link WeakCaseSplit}).
   */
  public static CheckResult decideWhole(final History history, final CheckOptions options, final CheckResult result) {
    if (!appliesWhole(options, result)) {
      return result;
    }
    final boolean writtenTwice = result.findings().stream().anyMatch(f -> f.kind() == FindingKind.NON_UNIQUE_WRITE);
    if (writtenTwice) {
      // A read no writer explains is impossible whichever writer the other reads took: no case split.
      final CheckResult impossible = withReadsWithoutWriter(history, options, result);
      if (impossible != null) {
        return impossible;
      }
    }
    final CheckResult classic = applies(options, result) ? decideClassic(history, options, result) : result;
    return writtenTwice ? decideWeak(history, options, classic) : classic;
  }

  /**
   * PL2, RC, RA and CC left UNKNOWN by a value written twice, decided by cases of writers ({@link
   * WeakCaseSplit}); a violation settles every UNKNOWN level that implies the violated one.
   */
  private static CheckResult decideWeak(final History history, final CheckOptions options, final CheckResult result) {
    final Set<Level> open = EnumSet.noneOf(Level.class);
    for (final Level level : WeakCaseSplit.LEVELS) {
      if (result.verdicts().get(level) == Verdict.UNKNOWN) {
        open.add(level);
      }
    }
    if (open.isEmpty()) {
      return result;
    }
    final WeakCaseSplit.Outcome o = WeakCaseSplit.decide(history, options.initialValue(), open, options.levels(),
        System.nanoTime() + options.solverBudget().toNanos());
    final Map<Level, Verdict> verdicts = new EnumMap<>(result.verdicts());
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(result.reasons());
    final List<Anomaly> found = new ArrayList<>();
    final Set<Level> shown = EnumSet.noneOf(Level.class);
    for (final Level level : Level.weakestFirst(o.verdicts().keySet())) {
      final Verdict v = o.verdicts().get(level);
      if (v == Verdict.UNKNOWN) {
        if (o.reason() != null) {
          reasons.put(level, o.reason());
        }
        continue;
      }
      verdicts.put(level, v);
      reasons.remove(level);
      if (v == Verdict.VIOLATED && !shown.contains(level)) {
        final Anomaly a = o.anomalies().get(level);
        found.add(a);
        shown.addAll(a.violates());
      }
    }
    for (final Level level : List.copyOf(verdicts.keySet())) {
      if (verdicts.get(level) != Verdict.UNKNOWN) {
        continue;
      }
      for (final Map.Entry<Level, Verdict> e : o.verdicts().entrySet()) {
        if (e.getValue() == Verdict.VIOLATED && level.implies(e.getKey())
            || e.getValue() == Verdict.SATISFIED && e.getKey().implies(level)) {
          verdicts.put(level, e.getValue());
          reasons.remove(level);
          break;
        }
      }
    }
    if (found.isEmpty() && verdicts.equals(result.verdicts()) && reasons.equals(result.reasons())) {
      return result;
    }
    return withAnomalies(result, options, verdicts, reasons, found);
  }

  /** SSER, SER and SI left UNKNOWN by blind writes or values written twice, searched ({@link VersionOrderSearch}). */
  private static CheckResult decideClassic(final History history, final CheckOptions options,
      final CheckResult result) {
    final List<Level> open = new ArrayList<>();
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI)) {
      if (result.verdicts().get(level) == Verdict.UNKNOWN) {
        open.add(level);
      }
    }
    if (open.isEmpty()) {
      return result;
    }
    final Map<Level, Verdict> verdicts = new EnumMap<>(result.verdicts());
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(result.reasons());
    final List<Anomaly> found = new ArrayList<>();
    // A level the engine proved violated is violated at every stronger level (its anomaly is the
    // proof), which the engine may leave UNKNOWN when a value written twice stopped it.
    for (final Level level : List.of(Level.SI, Level.SER)) {
      if (result.verdicts().get(level) == Verdict.VIOLATED) {
        for (final Level stronger : strongerOrEqual(level)) {
          if (verdicts.get(stronger) == Verdict.UNKNOWN) {
            verdicts.put(stronger, Verdict.VIOLATED);
            reasons.remove(stronger);
          }
        }
      }
    }
    for (final Level level : open) {
      if (verdicts.get(level) != Verdict.UNKNOWN) {
        continue; // settled by a stronger level's SATISFIED
      }
      final VersionOrderSearch.Outcome o = VersionOrderSearch.search(
          history, level, options.initialValue(), options.rtSkewMicros(), options.solverBudget());
      if (o.verdict() == Verdict.SATISFIED) {
        for (final Level weaker : weakerOrEqual(level)) {
          if (verdicts.get(weaker) == Verdict.UNKNOWN) {
            verdicts.put(weaker, Verdict.SATISFIED);
            reasons.remove(weaker);
          }
        }
      } else if (o.verdict() == Verdict.VIOLATED) {
        final Set<Level> proved = EnumSet.noneOf(Level.class);
        for (final Level stronger : strongerOrEqual(level)) {
          if (verdicts.containsKey(stronger)) {
            if (verdicts.get(stronger) == Verdict.UNKNOWN) {
              verdicts.put(stronger, Verdict.VIOLATED);
              reasons.remove(stronger);
            }
            proved.add(stronger);
          }
        }
        // A proof at a weaker level also proves the stronger ones: it replaces their proofs.
        found.clear();
        found.add(anomaly(level, proved, o));
      } else if (o.reason() != null && (o.reason().contains("budget") || o.reason().startsWith(VersionOrderSearch.SIZE_GUARD)
          || o.reason().startsWith(VersionOrderSearch.CASES_GUARD) || o.reason().startsWith(VersionOrderSearch.CASES_UNDECIDED))) {
        reasons.put(level, o.reason());
      }
    }
    // The other requested levels a decided one settles: SI holding implies PC, SER implies RR, and a
    // violation of a level is one of every level that implies it.
    for (final Level level : List.copyOf(verdicts.keySet())) {
      if (verdicts.get(level) != Verdict.UNKNOWN) {
        continue;
      }
      for (final Level decided : List.of(Level.SSER, Level.SER, Level.SI)) {
        if (open.contains(decided) && verdicts.get(decided) == Verdict.SATISFIED && decided.implies(level)) {
          verdicts.put(level, Verdict.SATISFIED);
          reasons.remove(level);
          break;
        }
        if (open.contains(decided) && verdicts.get(decided) == Verdict.VIOLATED && level.implies(decided)) {
          verdicts.put(level, Verdict.VIOLATED);
          reasons.remove(level);
          break;
        }
      }
    }
    if (found.isEmpty() && verdicts.equals(result.verdicts()) && reasons.equals(result.reasons())) {
      return result;
    }
    return withAnomalies(result, options, verdicts, reasons, found);
  }

  /**
   * Whether {@link #decideWhole} would leave {@code result} as it is: none of SSER, SER and SI is
   * UNKNOWN and no value was written twice (which would have reads no writer explains looked for
   * and the weak levels split by cases).
   */
  public static boolean classicSettled(final CheckResult result) {
    return Level.CLASSIC.stream().noneMatch(l -> result.verdicts().get(l) == Verdict.UNKNOWN)
        && result.findings().stream().noneMatch(f -> f.kind() == FindingKind.NON_UNIQUE_WRITE);
  }

  /**
   * {@code result} with {@code holds} (SSER or SER) proved SATISFIED by a checked version order,
   * settled as {@link #decideClassic} settles a SATISFIED search: every UNKNOWN level among it and
   * the weaker classic levels, then every other UNKNOWN level one of them implies (SI: PC, SER:
   * RR), their reasons removed.
   */
  public static CheckResult withSatisfied(final CheckResult result, final Level holds) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(result.verdicts());
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(result.reasons());
    final List<Level> settled = new ArrayList<>();
    for (final Level level : weakerOrEqual(holds)) {
      if (verdicts.get(level) == Verdict.UNKNOWN) {
        verdicts.put(level, Verdict.SATISFIED);
        reasons.remove(level);
        settled.add(level);
      }
    }
    if (settled.isEmpty()) {
      return result;
    }
    for (final Level level : List.copyOf(verdicts.keySet())) {
      if (verdicts.get(level) == Verdict.UNKNOWN && settled.stream().anyMatch(d -> d.implies(level))) {
        verdicts.put(level, Verdict.SATISFIED);
        reasons.remove(level);
      }
    }
    return new CheckResult(verdicts, reasons, result.anomalies(), result.findings(), result.stats());
  }

  /**
   * Whether {@link #decide} would search: the search is on, the input valid, a write was blind or
   * a value was written twice (either leaves version orders or reads' writers open), nothing was
   * pruned, and SSER, SER or SI is UNKNOWN. Cheap: callers test it before assembling the history
   * (the mini-transaction fast path).
   */
  /**
   * Whether {@code a} exists only in a result, not as an engine event: the proof of the search of
   * version orders ({@link #NAME}) and a read no writer explains ({@link ReadsWithoutWriter}). A
   * streaming publisher publishes those from the result (docs/streaming.md, "Blind writes").
   */
  public static boolean isResultOnly(final Anomaly a) {
    return NAME.equals(a.name()) || ReadsWithoutWriter.madeHere(a);
  }

  /** Whether {@link #decideWhole} may change {@code result}: searchable, and some level UNKNOWN. */
  public static boolean appliesWhole(final CheckOptions options, final CheckResult result) {
    return searchable(options, result) && result.verdicts().values().stream().anyMatch(v -> v == Verdict.UNKNOWN);
  }

  public static boolean applies(final CheckOptions options, final CheckResult result) {
    return searchable(options, result)
        && List.of(Level.SSER, Level.SER, Level.SI).stream().anyMatch(l -> result.verdicts().get(l) == Verdict.UNKNOWN);
  }

  /** The search is on, the input valid, a write was blind or a value written twice, and nothing was pruned. */
  private static boolean searchable(final CheckOptions options, final CheckResult result) {
    return !options.solverBudget().isZero() && !result.hasInvalidInput()
        && result.findings().stream().anyMatch(f -> f.kind() == FindingKind.BLIND_WRITE
            || f.kind() == FindingKind.NON_UNIQUE_WRITE)
        && result.findings().stream().noneMatch(f -> f.kind() == FindingKind.STALE_READ_BEYOND_HORIZON
            || f.kind() == FindingKind.HORIZON_PRUNED);
  }

  /**
   * The result with every read that no writer of its value explains reported ({@link
   * ReadsWithoutWriter}) and every UNKNOWN level VIOLATED, or null when there is no such read the
   * engine did not report already.
   */
  private static CheckResult withReadsWithoutWriter(final History history, final CheckOptions options,
      final CheckResult result) {
    final Set<io.isowatch.core.check.AnomalyRead> reported = new java.util.HashSet<>();
    for (final Anomaly a : result.anomalies()) {
      // A read the engine already reported as one no level allows (not a non-repeatable read, which RC allows).
      if (a.read() != null && a.name() != null && READ_ANOMALIES.contains(a.name())) {
        reported.add(a.read());
      }
    }
    final List<Anomaly> found = new ArrayList<>();
    for (final ReadsWithoutWriter.Found f : ReadsWithoutWriter.find(history, options.initialValue())) {
      final Anomaly a = ReadsWithoutWriter.anomaly(f, options.initialValue(), options.levels());
      if (!reported.contains(a.read())) {
        found.add(a);
      }
    }
    if (found.isEmpty()) {
      return null;
    }
    final Map<Level, Verdict> verdicts = new EnumMap<>(result.verdicts());
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(result.reasons());
    for (final Level level : result.verdicts().keySet()) {
      if (verdicts.get(level) == Verdict.UNKNOWN) {
        verdicts.put(level, Verdict.VIOLATED);
        reasons.remove(level);
      }
    }
    return withAnomalies(result, options, verdicts, reasons, found);
  }

  static CheckResult withAnomalies(final CheckResult result, final CheckOptions options,
      final Map<Level, Verdict> verdicts, final Map<Level, String> reasons, final List<Anomaly> found) {
    final List<Anomaly> anomalies = new ArrayList<>(result.anomalies());
    final Map<String, Long> counts = new LinkedHashMap<>(result.stats().anomaliesByName());
    for (final Anomaly a : found) {
      if (anomalies.size() < options.maxAnomalies()) {
        anomalies.add(a);
      }
      counts.merge(a.displayName(), 1L, Long::sum);
    }
    final CheckStats stats = result.stats().withAnomalies(counts,
        result.stats().anomaliesTruncated() || anomalies.size() < result.anomalies().size() + found.size());
    return new CheckResult(verdicts, reasons, anomalies, result.findings(), stats);
  }

  private static List<Level> weakerOrEqual(final Level level) {
    return switch (level) {
      case SSER -> List.of(Level.SSER, Level.SER, Level.SI);
      case SER -> List.of(Level.SER, Level.SI);
      default -> List.of(level);
    };
  }

  static List<Level> strongerOrEqual(final Level level) {
    return switch (level) {
      case SI -> List.of(Level.SI, Level.SER, Level.SSER);
      case SER -> List.of(Level.SER, Level.SSER);
      default -> List.of(level);
    };
  }

  /** The counterexample: the cycles every version order closes one of, the first one as the anomaly's cycle. */
  static Anomaly anomaly(final Level level, final Set<Level> proved, final VersionOrderSearch.Outcome o) {
    final Map<String, Transaction> byId = new HashMap<>();
    for (final Transaction t : o.txns()) {
      byId.put(t.id(), t);
    }
    final List<VersionOrderSearch.Step> first = o.cycles().get(0);
    final List<Edge> cycle = first.stream().map(VersionOrderSearch.Step::edge).toList();
    final List<Transaction> txns = new ArrayList<>();
    for (final Edge e : cycle) {
      txns.add(byId.get(e.from()));
    }
    final StringBuilder text = new StringBuilder();
    if (!o.cases().isEmpty()) {
      return new Anomaly(adyaClass(first, level), NAME, proved, txns, cycle, byCases(level, o).trim());
    }
    final boolean chosen = o.cycles().stream().flatMap(List::stream).anyMatch(VersionOrderSearch.Step::chosen);
    if (chosen && o.rounds() == 0) {
      // A lost update (VersionOrderSearch.lostUpdate): two cycles, one per order of the two writers.
      text.append("Two transactions read the same version of a key and both overwrote it, so no version order of ")
          .append("the blind writes avoids a cycle at ").append(level).append(": whichever of the two versions comes ")
          .append("first, the other transaction read the version it overwrote. (1) ").append(render(o.cycles().get(0)))
          .append(". (2) ").append(render(o.cycles().get(1))).append(". A step marked [if ...] holds only in the ")
          .append("version orders that make that choice; the cycles are not a claim about which order the database ")
          .append("used.");
    } else if (!chosen) {
      text.append("Every version order of the blind writes has a cycle at ").append(level)
          .append(": this one's edges hold in every order that has no other cycle (a writer that read a version "
              + "follows it directly, and the chain of writers that starts at the initial version comes first): ")
          .append(render(first)).append('.');
    } else {
      text.append("No version order of the blind writes avoids a cycle at ").append(level).append(": the search of ")
          .append(o.variables()).append(" open pair(s) of write chains proved (SAT, unsatisfiable) that every order ")
          .append("contains at least one of ").append(o.coreSize() == 1 ? "this cycle" : "these "
              + o.coreSize() + " cycles").append(o.minimal() ? "" : " (not minimized)").append(". ");
      final int shown = Math.min(SHOWN_CYCLES, o.cycles().size());
      for (int i = 0; i < shown; i++) {
        text.append(o.coreSize() == 1 ? "" : "(" + (i + 1) + ") ").append(render(o.cycles().get(i))).append(". ");
      }
      if (shown < o.coreSize()) {
        text.append("(").append(o.coreSize() - shown).append(" more cycles are not shown.) ");
      }
      text.append("A step marked [if ...] holds only in the version orders that make that choice; the cycles are "
          + "not a claim about which order the database used, only that no order avoids them all.");
    }
    return new Anomaly(adyaClass(first, level), NAME, proved, txns, cycle, text.toString().trim());
  }

  /**
   * The explanation of a violation on a history where a value is written more than once: which
   * reads could have read from whom, and for each way to attribute them, the cycles every version
   * order of that case contains. A case is an assumption ("if T3 read x=1 from T1"), never a fact.
   */
  private static String byCases(final Level level, final VersionOrderSearch.Outcome o) {
    final StringBuilder text = new StringBuilder();
    final List<VersionOrderSearch.Case> cases = o.cases();
    text.append("A value read here is written by more than one transaction, so which of them a read took is not known: ")
        .append("each of the ").append(cases.size()).append(" way(s) to attribute such reads was searched, and in ")
        .append("none does a version order avoid a cycle at ").append(level).append(". Whichever writer was read from, ")
        .append("the history is not ").append(level).append(". ");
    final int shownCases = Math.min(SHOWN_CYCLES, cases.size());
    for (int i = 0; i < shownCases; i++) {
      final VersionOrderSearch.Case c = cases.get(i);
      text.append("If ").append(String.join(" and ", c.choices())).append(": ");
      final int shown = Math.min(SHOWN_CYCLES, c.cycles().size());
      if (c.coreSize() > 1) {
        text.append("every version order contains one of ").append(c.coreSize()).append(" cycles")
            .append(c.minimal() ? "" : " (not minimized)").append(": ");
      }
      for (int j = 0; j < shown; j++) {
        text.append(c.coreSize() == 1 ? "" : "(" + (j + 1) + ") ").append(render(c.cycles().get(j)))
            .append(j + 1 < shown ? "; " : "");
      }
      if (shown < c.coreSize()) {
        text.append(" (").append(c.coreSize() - shown).append(" more not shown)");
      }
      text.append(". ");
    }
    if (shownCases < cases.size()) {
      text.append("(").append(cases.size() - shownCases).append(" more cases are not shown.) ");
    }
    text.append("A step marked [if ...] holds only under that choice of writer or of version order; the cases and ")
        .append("cycles are not a claim about which writer or order the database used.");
    return text.toString();
  }

  private static String render(final List<VersionOrderSearch.Step> steps) {
    final StringBuilder b = new StringBuilder();
    for (final VersionOrderSearch.Step s : steps) {
      final Edge e = s.edge();
      if (b.length() == 0) {
        b.append(e.from());
      }
      b.append(" -").append(e.kind());
      if (e.key() != null) {
        b.append('(').append(e.key()).append(e.value() == null ? "" : "=" + e.value()).append(')');
      }
      b.append("-> ").append(e.to());
      if (s.chosen() && e.kind() == EdgeKind.WR) {
        b.append(" [if ").append(e.to()).append(" read ").append(e.key()).append(" from ").append(e.from()).append(']');
      } else if (s.chosen()) {
        b.append(e.kind() == EdgeKind.WW
            ? " [if " + e.from() + "'s version of " + e.key() + " precedes " + e.to() + "'s]"
            : " [if the version " + e.from() + " read of " + e.key() + " precedes " + e.to() + "'s]");
      }
    }
    return b.toString();
  }

  /** Adya's class of one cycle: by its anti-dependencies, with Elle's suffixes for SO and RT steps. */
  private static String adyaClass(final List<VersionOrderSearch.Step> steps, final Level level) {
    int rw = 0;
    boolean so = false;
    boolean rt = false;
    boolean wr = false;
    for (final VersionOrderSearch.Step s : steps) {
      switch (s.edge().kind()) {
        case RW -> rw++;
        case SO -> so = true;
        case RT -> rt = true;
        case WR -> wr = true;
        default -> { }
      }
    }
    final String base = rw == 0 ? (wr ? "G1c" : "G0") : rw == 1 ? "G-single" : "G2-item";
    return base + (rt ? "-realtime" : so ? "-process" : "");
  }
}
