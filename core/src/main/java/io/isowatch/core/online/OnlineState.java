package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.DependencyView;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.Transaction;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;

/**
 * Everything the incremental engine keeps for one tenant's segment, part by part as in the table
 * of docs/streaming-design.md (each part a store in the topology). Each part is an object that
 * keeps its own invariants; this class only holds them together, seeds them and says what a cut
 * carries into the next state ({@link #carryInto}). It is the engine's {@link DependencyView}: what
 * names and explains its anomalies (edges, versions, keys) reads the state through it.
 */
final class OnlineState implements DependencyView {
  final CheckOptions options;
  final OnlineOptions online;

  // Transactions: every one taken (by slot, with the indeterminate ones), those waiting for release, sessions.
  final TxnIndex txns;
  final ReorderBuffer buffer;
  final Sessions sessions = new Sessions();

  /** Keys, their version chains and the edges those imply. */
  final VersionChains chains;
  final PendingReads pending = new PendingReads();

  /** The edges and the requested levels' graphs. */
  final DependencyGraph graph;

  // What it reported, and what it must remember of it. The Publisher records findings and
  // anomalies (a cut adds its own findings), the ResultBuilder reads them.
  /** Carried from state to state by a cut. */
  private Findings findings = new Findings();
  /** Not carried: a cut folds what it can list into the summary. */
  final AnomalyLog anomalies;
  /** Values reported as read from thin air, and the ThinAirReads published (both carried). */
  private ThinAir thinAir = new ThinAir();
  /**
   * Ids of FUTURE_EVENT_TIME transactions not processed yet: their start is unknown on purpose, so
   * they are no MISSING_TIMESTAMPS (carried by a cut, not checkpointed).
   */
  private Set<String> futureIds = new HashSet<>();
  /** Values written more than once (declared ahead, or seen). */
  final RepeatedWrites repeats = new RepeatedWrites();
  final Counters counters = new Counters();

  // Segmentation.
  /** What earlier cuts pruned (carried from state to state), or null when segmentation is off. */
  final HorizonSummary summary;
  /** Where a cut may be placed (latest time, snapshot positions). */
  final CutPoints cutPoints = new CutPoints();
  /** While a cut or a restore replays the retained transactions into this state: who checked what. */
  ReplayOracle replay;
  /** How many transactions the parts were sized for (a hint: they grow beyond it). */
  final int expectedTransactions;
  /** The weak levels' incremental check, told of each released transaction; null when no weak level is decided. */
  WeakVerdicts weakLevels;

  OnlineState(final CheckOptions options, final OnlineOptions online, final int expectedTransactions) {
    this(options, online, expectedTransactions,
        online.horizon().enabled() ? new HorizonSummary(online.horizon()) : null);
  }

  OnlineState(final CheckOptions options, final OnlineOptions online, final int expectedTransactions,
      final HorizonSummary summary) {
    this.options = options;
    this.expectedTransactions = expectedTransactions;
    this.online = online;
    this.summary = summary;
    this.chains = new VersionChains(options.initialValue(), expectedTransactions);
    this.txns = new TxnIndex(expectedTransactions);
    this.graph = new DependencyGraph(options.levels(), txns, options.rtSkewMicros(), expectedTransactions);
    final Comparator<AnomalyLog.Entry> canonical = (a, b) -> {
      final int c = PiOrder.compareCanonical(txns, sessions, a.first(), b.first());
      return c != 0 ? c : a.second() != b.second() ? Integer.compare(a.second(), b.second()) : Long.compare(a.seq(), b.seq());
    };
    final Comparator<AnomalyLog.Entry> pairs = (a, b) -> {
      int c = PiOrder.compareCanonical(txns, sessions, a.first(), b.first());
      if (c == 0) {
        c = PiOrder.compareCanonical(txns, sessions, a.second(), b.second());
      }
      return c != 0 ? c : Long.compare(a.seq(), b.seq());
    };
    this.anomalies = new AnomalyLog(options.maxAnomalies(), canonical, pairs);
    this.buffer = new ReorderBuffer((a, b) -> PiOrder.compare(txns, sessions, a, b));
  }

  /**
   * Continues what the state a cut replaced, or the checkpointed one, carried: its findings, the
   * values reported as thin air and the ThinAirReads published, the FUTURE_EVENT_TIME ids not processed yet and the declared repeats.
   * Called on the seeded state before anything is replayed into it.
   */
  void carry(final Findings carriedFindings, final KeyValueTable thinAirValues, final ThinAirReads thinAirPublished,
      final Set<String> future, final RepeatedValues repeated, final boolean wholeHistoryRepeats) {
    this.findings = carriedFindings;
    this.thinAir = new ThinAir(thinAirValues, thinAirPublished);
    this.futureIds = future;
    repeats.carry(repeated, wholeHistoryRepeats);
  }

  /** What this state carries into the next one of a cut ({@link #carry}). */
  void carryInto(final OnlineState next) {
    next.carry(findings, thinAir.reportedValues(), thinAir.publishedReads(), futureIds, repeats.declaredValues(),
        repeats.wholeHistoryDeclared());
  }

  Findings findings() {
    return findings;
  }

  ThinAir thinAir() {
    return thinAir;
  }

  /** Notes a transaction reported as FUTURE_EVENT_TIME, whose start is treated as unknown. */
  void futureEventTime(final String id) {
    futureIds.add(id);
  }

  /** Whether {@code id} was reported as FUTURE_EVENT_TIME (once: the note is dropped). */
  boolean takeFutureEventTime(final String id) {
    return futureIds.remove(id);
  }

  boolean requested(final Level level) {
    return options.levels().contains(level);
  }

  @Override
  public Transaction txn(final int t) {
    return txns.txn(t);
  }

  @Override
  public String keyName(final int key) {
    return chains.keyName(key);
  }

  @Override
  public java.util.Set<Level> requestedLevels() {
    return options.levels();
  }

  @Override
  public Long initialValue() {
    return options.initialValue();
  }

  @Override
  public int versionKey(final int version) {
    return chains.versionKey(version);
  }

  @Override
  public int versionWriter(final int version) {
    return chains.writer(version);
  }

  @Override
  public Long versionValue(final int version) {
    return chains.value(version);
  }

  @Override
  public EdgeKind edgeKind(final int edge) {
    return graph.edges.kind(edge);
  }

  @Override
  public int edgeVersion(final int edge) {
    return graph.edges.version(edge);
  }
}
