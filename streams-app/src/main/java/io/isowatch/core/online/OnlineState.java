package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.DependencyView;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Everything the incremental engine keeps for one tenant, part by part as in the table of
 * docs/streaming-design.md (each part a store in the topology), plus the counters of the stats.
 * It is the engine's {@link DependencyView}, so anomalies are named and explained by the same
 * code as the batch checker's.
 */
final class OnlineState implements DependencyView {
  final CheckOptions options;
  final OnlineOptions online;

  final TxnIndex txns;
  final Sessions sessions = new Sessions();
  final Keys keys = new Keys();
  final Versions versions;
  final VersionSuccessors successors;
  final VersionReaders readers;
  /**
   * Per key: the counted transactions whose version of it starts a chain of its own (a blind
   * write, or a write after a read of a value written twice). Each reader of the key's initial
   * version gets RW(reader → head) (docs/anomalies.md, "Certain edges"). Rebuilt by the replay of
   * a cut or a restore, like the readers and successors, so not checkpointed.
   */
  final IntMultimap chainHeads;
  final PendingReads pending = new PendingReads();
  final DependencyEdges edges;
  /** The requested levels' graphs, weakest level first (SI, SER, SSER): the order cycles are searched in. */
  final List<LevelGraph> graphs = new ArrayList<>(3);
  /** SSER's graph, or null when SSER is not requested. */
  final SserGraph sser;
  /** Carried from state to state by a cut. */
  Findings findings = new Findings();
  final AnomalyLog anomalies;
  /** Values whose reads were reported as ThinAirRead before a writer came: a later writer is late. */
  KeyValueTable thinAir = new KeyValueTable(16);
  /**
   * The ThinAirReads this state published, which a late writer may still retract. Not carried by a
   * cut (the cut moves the anomalies it listed into the summary) nor checkpointed, so that an
   * engine restored from a checkpoint behaves exactly as the one that wrote it.
   */
  ThinAirReads thinAirReads = new ThinAirReads();
  /**
   * Ids of FUTURE_EVENT_TIME transactions not processed yet: their start is unknown on purpose, so
   * they are no MISSING_TIMESTAMPS (carried by a cut, not checkpointed).
   */
  java.util.Set<String> futureIds = new java.util.HashSet<>();
  /** Indeterminate transactions, in processing order (those never promoted are ignored). */
  final IntList unknowns = new IntList(64);
  final ReorderBuffer buffer;
  /** What earlier cuts pruned (carried from state to state), or null when segmentation is off. */
  final HorizonSummary summary;
  /** While a cut or a restore replays the retained transactions into this state: who checked what. */
  ReplayOracle replay;
  /** π positions of snapshot transactions (read-only, every key), when cuts are aligned on them. */
  final IntList snapshots = new IntList(16);
  /** The latest π time of a released transaction with a time. */
  long latestReleasedTime = Long.MIN_VALUE;

  long input;
  long committed;
  long aborted;
  long promoted;
  long operations;
  long longRmw;
  long largeReadOnly;
  long duplicates;
  long late;
  boolean missingTimes;
  /** Written values the whole history repeats (known only to the batch adapter), or null. */
  RepeatedValues repeated;
  /** Some value was written twice. */
  boolean repeatSeen;
  /** The batch adapter declared the repeated values of the whole history: flushes need not look. */
  boolean repeatsDeclared;

  OnlineState(final CheckOptions options, final OnlineOptions online, final int expectedTransactions) {
    this(options, online, expectedTransactions,
        online.horizon().enabled() ? new HorizonSummary(online.horizon()) : null);
  }

  OnlineState(final CheckOptions options, final OnlineOptions online, final int expectedTransactions,
      final HorizonSummary summary) {
    this.options = options;
    this.online = online;
    this.summary = summary;
    // Mini-transactions write about 1.6 values each; sizing the table up front avoids rehashing.
    this.versions = new Versions(Math.max(1 << 10, 2 * expectedTransactions));
    this.txns = new TxnIndex(expectedTransactions);
    this.successors = new VersionSuccessors(expectedTransactions);
    this.readers = new VersionReaders(2 * expectedTransactions);
    this.chainHeads = new IntMultimap(1 << 10);
    this.edges = new DependencyEdges(expectedTransactions);
    if (options.levels().contains(Level.SI)) {
      graphs.add(new SiGraph(edges, expectedTransactions));
    }
    if (options.levels().contains(Level.SER)) {
      graphs.add(new SerGraph(edges, expectedTransactions));
    }
    if (options.levels().contains(Level.SSER)) {
      sser = new SserGraph(edges, txns, options.rtSkewMicros(), expectedTransactions);
      graphs.add(sser);
    } else {
      sser = null;
    }
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

  boolean requested(final Level level) {
    return options.levels().contains(level);
  }

  @Override
  public Transaction txn(final int t) {
    return txns.txn(t);
  }

  @Override
  public String keyName(final int key) {
    return keys.name(key);
  }

  @Override
  public Long initialValue() {
    return options.initialValue();
  }

  @Override
  public int versionKey(final int version) {
    return versions.key(version);
  }

  @Override
  public int versionWriter(final int version) {
    return versions.writer(version);
  }

  @Override
  public Long versionValue(final int version) {
    return versions.value(version);
  }

  @Override
  public EdgeKind edgeKind(final int edge) {
    return edges.kind(edge);
  }

  @Override
  public int edgeVersion(final int edge) {
    return edges.version(edge);
  }
}
