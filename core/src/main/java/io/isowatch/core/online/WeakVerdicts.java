package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.MixedLevelCheck;
import io.isowatch.core.check.ReadAnomaly;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.check.WeakLevelCheck;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The verdicts of the levels added by issue 12 (docs/levels.md, "How IsoWatch decides each
 * level"), read from a state as the {@link ResultBuilder} reads SSER, SER and SI:
 *
 * <ul>
 *   <li>PL2, RC, RA, CC, RR: by {@link WeakLevelCheck} over the retained counted transactions, plus the
 *       non-cycle anomalies of the engine that violate them (all but NonRepeatableReads for PL2 and
 *       RC; a lost update for RR) and what earlier cuts proved;
 *   <li>PC: VIOLATED when CC is, or when SI is by a cycle while no update was lost and every version
 *       order is known (then PC and SI coincide); SATISFIED when SI is; otherwise (SI violated with a
 *       lost update or an open version order) by its definition, {@link MixedLevelCheck} with every
 *       reader at PC ({@link #prefixCheck}), which only these histories pay for.
 * </ul>
 *
 * <p>The verdicts are kept by {@link IncrementalWeakCheck}, fed each released transaction once, as
 * the engine releases it (with the engine's key ids of its ops; a query feeds any it lacks), so a
 * violation is published with the transaction that completes it. It is
 * derived from what the state retains, so it needs no state of its own in a cut or a checkpoint:
 * a cut or a restore replays the retained transactions into a new state, and so into a new one.
 * The whole-history {@link WeakLevelCheck} runs only to name the counterexample of a violated
 * level, and in place of the incremental check where that one gives up (a value written twice, an
 * indeterminate transaction, for RR a key read twice and then written: {@link
 * IncrementalWeakCheck#gaveUp()}); then it is recomputed when the state changed since the last call.
 */
final class WeakVerdicts {
  private final OnlineState s;
  private final ResultBuilder results;
  private long stamp = -1;
  private WeakLevelCheck.Result cached;
  /** PC by its definition ({@link #prefixCheck}), when SI's graph cannot decide it, and when it was computed. */
  private MixedLevelCheck.Result prefix;
  private long prefixStamp = -1;
  /** Whether the stream was flushed since the last transaction processed: every writer has come. */
  private boolean complete;
  /** Whether a lagging answer will do (the publication of verdict changes after each transaction). */
  private boolean lag;
  /** The weak levels requested (their counterexamples are listed). */
  private final Set<Level> requested;
  /** The weak levels requested, and CC when PC is (PC is decided from it). */
  private final Set<Level> decided;
  /** The decided levels kept incrementally, or null when none is decided. */
  private final IncrementalWeakCheck incremental;
  /** Released transactions given to {@link #incremental} so far. */
  private int fed;
  /** How many had been given when {@link #crossCheck} last compared (-1: never). */
  private int crossCheckedFed = -1;
  /** The completeness {@link #crossCheck} last compared under. */
  private boolean crossCheckedComplete;

  WeakVerdicts(final OnlineState s, final ResultBuilder results) {
    this.s = s;
    this.results = results;
    this.requested = EnumSet.noneOf(Level.class);
    for (final Level l : s.options.levels()) {
      if (Level.WEAK.contains(l)) {
        requested.add(l);
      }
    }
    this.decided = EnumSet.copyOf(requested);
    if (s.options.levels().contains(Level.PC)) {
      decided.add(Level.CC);
    }
    this.incremental = decided.isEmpty() ? null : new IncrementalWeakCheck(decided, s.options.initialValue(), s, s.expectedTransactions);
    if (incremental != null) {
      s.weakLevels = this;
    }
  }

  /**
   * The engine released {@code slot} and registered its writes; {@code opKeys[j]} is the key id of
   * its op j. The incremental check takes it now, while its ops are at hand (the engine's key ids
   * and version table spare it indexing them again).
   */
  void released(final int slot, final int[] opKeys) {
    feed(slot, opKeys);
  }

  /** Gives the incremental check every released transaction it lacks ({@code slot}'s key ids: {@code opKeys}). */
  private void feed(final int slot, final int[] opKeys) {
    while (fed < s.txns.released() && incremental.gaveUp() == null) {
      final int next = s.txns.releasedAt(fed++);
      incremental.release(next, next == slot ? opKeys : null);
    }
  }

  /** The incremental check, fed every transaction released so far; null when it gave up (or decides nothing). */
  private IncrementalWeakCheck incremental() {
    if (incremental == null) {
      return null;
    }
    feed(-1, null);
    final IncrementalWeakCheck inc = incremental.gaveUp() == null ? incremental : null;
    if (fed != crossCheckedFed || crossCheckedComplete != complete) {
      crossCheckedFed = fed;
      crossCheckedComplete = complete;
      crossCheck(inc);
    }
    return inc;
  }

  /**
   * Set by property tests (IncrementalWeakCheckPropertyTest): every answer of the incremental check
   * is then compared with the whole-history check of the same state, and a difference throws.
   */
  static volatile boolean crossCheck;

  /** With {@link #crossCheck}: throws unless the whole check of this state agrees with the incremental one. */
  private void crossCheck(final IncrementalWeakCheck inc) {
    if (!crossCheck || inc == null) {
      return;
    }
    final WeakLevelCheck.Result whole = new WeakLevelCheck(entries(), s.options.initialValue(), horizon(), complete)
        .decide(decided, s.options.levels());
    final WeakLevelCheck.Result without = new WeakLevelCheck(entries(), s.options.initialValue(), true, complete)
        .decide(decided, s.options.levels());
    for (final Level l : decided) {
      final Verdict v = inc.verdict(l, horizon(), complete);
      if (v != whole.verdicts().get(l)
          || inc.violatedWithoutThinAir(l) != (without.verdicts().get(l) == Verdict.VIOLATED)
          || (v == Verdict.UNKNOWN && !whole.unknownReason().equals(inc.unknownReason(horizon(), complete)))) {
        throw new IllegalStateException(l + ": incremental " + v + " (" + inc.unknownReason(horizon(), complete)
            + "), without thin air " + inc.violatedWithoutThinAir(l) + "; whole " + whole.verdicts().get(l) + " ("
            + whole.unknownReason() + "), without thin air " + without.verdicts().get(l) + "; " + entries().size()
            + " transactions, complete " + complete + ", horizon " + horizon());
      }
    }
  }

  /**
   * Whether a cut pruned transactions: a read of a value no retained transaction wrote is then not
   * judged. A cut that pruned nothing (for a checkpoint) leaves every writer there: such a read is
   * from thin air at a flush, as in {@code check}.
   */
  private boolean horizon() {
    final HorizonSummary h = s.summary;
    return h != null && h.pruned > 0;
  }

  /** The weak check's reason for an UNKNOWN level (its {@link WeakLevelCheck.Result#unknownReason()}). */
  private String unknownReason() {
    final IncrementalWeakCheck inc = incremental();
    return inc != null ? inc.unknownReason(horizon(), complete) : check().unknownReason();
  }

  void allowLag(final boolean allowed) {
    lag = allowed;
  }

  Verdict verdict(final Level level) {
    final HorizonSummary h = s.summary;
    // PC found violated through SI's graph is not final: a lost update arriving later makes it
    // UNKNOWN, as check says of the whole history. So a cut's record of it is not taken as proof
    // (it is decided again from the state and the summary's SI), only one that CC's violation made.
    // A PC that ThinAirReads alone violated is proof while they stand (a retraction gives it back).
    if (h != null && h.violates(level)
        && (level != Level.PC || h.violates(Level.CC) || h.violatedByThinAir(Level.PC))) {
      return Verdict.VIOLATED;
    }
    return switch (level) {
      case PC -> pc();
      default -> weak(level);
    };
  }

  String reason(final Level level) {
    return switch (level) {
      case PC -> {
        if (weak(Level.CC) == Verdict.UNKNOWN) {
          yield reason(Level.CC);
        }
        if (results.classicVerdict(Level.SI, results.everyLevelViolated()) == Verdict.VIOLATED) {
          final String why = prefixCheck().unknownReason();
          yield why != null ? "SI is violated, but PC allows lost updates, and the check of PC by its definition "
              + "(a commit order where each transaction reads a prefix) cannot decide: " + why
              : "SI is violated, but PC allows lost updates, and the check of PC by its definition found none over "
              + "the retained transactions; the reads of pruned versions (the horizon) are not judged, so no "
              + "violation of PC is certain";
        }
        yield results.classicReason(Level.SI);
      }
      default -> {
        final HorizonSummary h = s.summary;
        if (h != null && h.staleUndecided.contains(level) && unknownReason() == null) {
          yield h.staleReads + " read(s) returned a value no retained transaction wrote, probably a version older than the "
              + "retained horizon (STALE_READ_BEYOND_HORIZON); no violation of " + level + " is certain";
        }
        yield unknownReason();
      }
    };
  }

  /** The counterexamples of violated weak levels that no anomaly in {@code listed} already proves. */
  List<Anomaly> witnesses(final List<Anomaly> listed) {
    final Set<Level> proven = EnumSet.noneOf(Level.class);
    for (final Anomaly a : listed) {
      proven.addAll(a.violates());
    }
    final List<Anomaly> out = new ArrayList<>();
    final Anomaly prefixWitness = prefixWitness(proven);
    if (prefixWitness != null) {
      out.add(prefixWitness);
      proven.addAll(prefixWitness.violates());
    }
    if (requested.isEmpty()) {
      return out;
    }
    final IncrementalWeakCheck inc = incremental();
    if (inc != null && requested.stream().noneMatch(l -> inc.verdict(l, horizon(), complete) == Verdict.VIOLATED)) {
      return out; // nothing to explain: the whole check would find no counterexample either
    }
    for (final Level l : Level.weakestFirst(requested)) {
      final Anomaly w = check().witnesses().get(l);
      if (w != null && !proven.contains(l)) {
        out.add(w);
        proven.addAll(w.violates());
      }
    }
    return out;
  }

  /**
   * A counterexample of a violated PC that no anomaly lists (as one the check by definition proved
   * beside a lost update), from that check: without it a promise of PC alone would be broken by no
   * anomaly. Null when an anomaly lists PC, PC is not violated, or the check finds none.
   */
  private Anomaly prefixWitness(final Set<Level> proven) {
    if (!s.options.levels().contains(Level.PC) || proven.contains(Level.PC) || verdict(Level.PC) != Verdict.VIOLATED) {
      return null;
    }
    final MixedLevelCheck.Result r = prefixCheck();
    return r.verdict() == Verdict.VIOLATED ? r.witness() : null;
  }

  private Verdict pc() {
    final Verdict cc = weak(Level.CC);
    if (cc == Verdict.VIOLATED) {
      return Verdict.VIOLATED;
    }
    final Verdict si = results.classicVerdict(Level.SI, results.everyLevelViolated());
    if (si == Verdict.VIOLATED) {
      // Exact only over the whole history: nothing pruned (a cut that pruned nothing, as before a
      // checkpoint, changes nothing), and no lost update, including those a cut moved to the summary.
      final HorizonSummary h = s.summary;
      final boolean exact = s.anomalies.lostUpdateCount() == 0 && s.chains.undeterminedKeys() == 0
          && (h == null || (h.pruned == 0 && h.counts.getOrDefault("LostUpdate", 0L) == 0));
      if (exact && results.cyclic(Level.SI)) {
        return Verdict.VIOLATED;
      }
      // A lost update (or an open version order) parts PC from SI: decide PC by its definition,
      // the mixed check with every reader at PC. Only these histories pay for it.
      final Verdict byDefinition = prefixCheck().verdict();
      // Over retained transactions after a cut only a violation is proof (PC holds on every
      // sub-history of a history that satisfies it); a satisfied remainder says nothing of the rest.
      return byDefinition == Verdict.VIOLATED || (byDefinition == Verdict.SATISFIED && !horizon())
          ? byDefinition : Verdict.UNKNOWN;
    }
    return cc == Verdict.UNKNOWN && si == Verdict.SATISFIED ? Verdict.UNKNOWN : si;
  }

  /**
   * PC by its definition over the retained transactions: {@link MixedLevelCheck} with every reader
   * at PC (paper 002's prefix axiom, read by read, is paper 003's with one level). Exact on MT
   * histories with lost updates (its branch search of forks, within the solver budget), where SI's
   * graph says nothing of PC. Cached as {@link #check()} is, with a longer lag.
   */
  private MixedLevelCheck.Result prefixCheck() {
    final long now = s.txns.released();
    // Heavier than the weak check: between two transactions it may lag until the retained history
    // doubled, as MixedVerdicts' check does (about two whole checks over a history's growth).
    final boolean fresh = prefix != null && (now == prefixStamp || (lag && now < prefixStamp + Math.max(64, prefixStamp)));
    if (!fresh) {
      prefix = MixedLevelCheck.uniform(entries(), s.options.initialValue(), horizon(), complete, Level.PC,
          s.options.solverBudget()).decide(s.options.levels());
      prefixStamp = now;
    }
    return prefix;
  }

  private Verdict weak(final Level level) {
    final long nonRepeatable = s.anomalies.counts().getOrDefault(ReadAnomaly.Kind.NonRepeatableReads.name(), 0L);
    if (s.anomalies.readCount() > nonRepeatable) {
      return Verdict.VIOLATED;
    }
    if (nonRepeatable > 0 && level != Level.PL2 && level != Level.RC) {
      return Verdict.VIOLATED;
    }
    if (level == Level.RR && s.anomalies.lostUpdateCount() > 0) {
      return Verdict.VIOLATED;
    }
    final IncrementalWeakCheck inc = incremental();
    final Verdict v = inc != null ? inc.verdict(level, horizon(), complete) : check().verdicts().get(level);
    final HorizonSummary h = s.summary;
    if (v == Verdict.SATISFIED && h != null && h.staleUndecided.contains(level)) {
      return Verdict.UNKNOWN;
    }
    return v;
  }

  /**
   * The requested weak levels that ThinAirReads alone violate ({@code thinAir} of them in this state,
   * maybe more in the summary): VIOLATED now, and violated by nothing else, which a retraction
   * would leave standing. Else is: another read anomaly but NonRepeatableReads (every level); a
   * NonRepeatableReads (every weak level but PL2 and RC); a lost update (RR); a counterexample of
   * the weak check that does not judge a read with no writer, as after a cut; an earlier cut's
   * proof. PC is among them when CC is violated by nothing else and SI by no cycle, for then only
   * the ThinAirReads make it VIOLATED ({@link #pc}).
   */
  Set<Level> violatedOnlyByThinAir(final long thinAir) {
    if (requested.isEmpty()) {
      return Set.of();
    }
    final HorizonSummary h = s.summary;
    final IncrementalWeakCheck inc = incremental();
    final WeakLevelCheck.Result whole = inc == null ? withoutThinAir() : null;
    final Predicate<Level> without = inc != null ? inc::violatedWithoutThinAir
        : l -> whole.verdicts().get(l) == Verdict.VIOLATED;
    final Set<Level> out = EnumSet.noneOf(Level.class);
    for (final Level level : requested) {
      if (verdict(level) == Verdict.VIOLATED && !violatedOtherwise(level, thinAir, without)) {
        out.add(level);
      }
    }
    if (s.options.levels().contains(Level.PC) && verdict(Level.PC) == Verdict.VIOLATED
        && !violatedOtherwise(Level.CC, thinAir, without) && !results.cyclic(Level.SI)) {
      out.add(Level.PC);
    }
    return out;
  }

  /** Whether something other than a ThinAirRead violates the weak {@code level} (see {@link #violatedOnlyByThinAir}). */
  private boolean violatedOtherwise(final Level level, final long thinAir, final Predicate<Level> without) {
    final long nonRepeatable = s.anomalies.counts().getOrDefault(ReadAnomaly.Kind.NonRepeatableReads.name(), 0L);
    final HorizonSummary h = s.summary;
    return s.anomalies.readCount() > thinAir + nonRepeatable
        || (nonRepeatable > 0 && level != Level.PL2 && level != Level.RC)
        || (level == Level.RR && s.anomalies.lostUpdateCount() > 0)
        || without.test(level)
        || (h != null && h.violated.contains(level));
  }

  /** The weak check of the retained transactions with every read that has no writer left unjudged. */
  private WeakLevelCheck.Result withoutThinAir() {
    return new WeakLevelCheck(entries(), s.options.initialValue(), true, complete).decide(decided, s.options.levels());
  }

  private List<WeakLevelCheck.Entry> entries() {
    final List<WeakLevelCheck.Entry> entries = new ArrayList<>();
    for (int i = 0; i < s.txns.released(); i++) {
      final int slot = s.txns.releasedAt(i);
      entries.add(new WeakLevelCheck.Entry(s.txns.txn(slot), s.txns.session(slot), s.txns.rank(slot)));
    }
    return entries;
  }

  /** A transaction was processed (false) or the stream flushed (true). */
  void complete(final boolean flushed) {
    if (complete != flushed) {
      complete = flushed;
      cached = null;
      prefix = null;
    }
  }

  private WeakLevelCheck.Result check() {
    // Weak verdicts change only when a transaction is released or the stream flushed. The check is
    // linear in the retained transactions; publishing after each one may use a check up to an eighth
    // of them (at least 64) old, so publication costs amortised linear time; results are exact.
    final long now = s.txns.released();
    final boolean fresh = cached != null && (now == stamp || (lag && now < stamp + Math.max(64, stamp / 8)));
    if (!fresh) {
      cached = new WeakLevelCheck(entries(), s.options.initialValue(), horizon(), complete)
          .decide(decided, s.options.levels());
      stamp = now;
    }
    return cached;
  }
}
