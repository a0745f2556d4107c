package io.isowatch.core.online;

import io.isowatch.core.history.Transaction;

/**
 * The level graphs' half of the engine (design step 8) on a thread of its own, for a whole-history
 * check of a history expected to be valid ({@link InOrderFeed}): the engine's thread resolves reads
 * and builds each step's edges, and hands the graph's inputs over as longs (nodes, times, edges, one
 * commit per step) through a {@link LongRing}; this thread inserts them into the level graphs in the
 * same order and with the same π positions the engine's own {@link CycleDetector} would have used,
 * so the graphs end exactly as they would have on one thread.
 *
 * <p>It only knows whether some group was refused. Reporting a cycle needs the engine's state as it
 * was at that step (the version chains, the anomaly log), which has moved on by then: so the first
 * refusal makes the owner drop the engine's state, and the whole-history check runs again on one
 * thread ({@link WholeHistoryCheck#check}), which reports every cycle as usual. Results are thus
 * those of the single-threaded check in every case; a history with a cycle pays for the run up to its
 * first refused group twice.
 *
 * <p>Off by default: on a quiet machine it did not shorten a check (run S, docs/benchmarks.md: 10^6
 * transactions 3.36 s with it, 3.15 s without; the engine's thread is shorter, but the graph thread's
 * hand-off and waiting cost more than the cycle search it takes over). {@code
 * -Disowatch.check.graph-thread=true} turns it on, on a machine with more than one processor.
 */
final class GraphThread {
  /** The system property that turns the graph thread on ({@code true}). */
  static final String PROPERTY = "isowatch.check.graph-thread";

  private static final long NODE = 1;
  private static final long TIMES = 2;
  private static final long EDGE = 3;
  private static final long COMMIT = 4;
  private static final long END = 5;
  private static final long LOW = 0xffff_ffffL;

  private final LongRing ring = new LongRing(1 << 15);
  private final OnlineState s;
  private final Thread thread;
  /** Set by the graph thread at the first refused group, or when it failed. */
  private volatile boolean refused;
  /** What the graph thread threw, rethrown on the owner's thread; read after join. */
  private Throwable failure;

  // The graph thread's own: the step being built, the π positions it was told, its detector.
  private final StepEdges step = new StepEdges();
  private final SlotInts positions;
  private final CycleDetector detector;

  private GraphThread(final OnlineState s, final int expected) {
    this.s = s;
    this.positions = new SlotInts(expected + 1);
    positions.set(TxnIndex.INIT, -1);
    this.detector = CycleDetector.refusalsOnly(s, positions::get);
    this.thread = new Thread(this::run, "isowatch-graph");
    thread.setDaemon(true);
  }

  /** Whether a check should use a graph thread: turned on, and more than one processor. */
  static boolean enabledByDefault() {
    return "true".equals(System.getProperty(PROPERTY)) && Runtime.getRuntime().availableProcessors() > 1;
  }

  /**
   * Starts the graph thread for {@code s}, whose level graphs it owns from now on (until {@link
   * #finish}): the engine's thread must not touch {@code s.graph} in between.
   */
  static GraphThread start(final OnlineState s, final int expected) {
    final GraphThread g = new GraphThread(s, expected);
    g.thread.start();
    return g;
  }

  // The engine's side.

  /** A counted transaction becomes a node ({@link DependencyGraph#addTransaction}). */
  void node(final int slot) {
    ring.put(NODE);
    ring.put(slot);
    ring.put(s.txns.piPos(slot));
  }

  /** Its real-time edges ({@link DependencyGraph#addTimes(int, StepEdges)}), into the step being built. */
  void times(final int slot) {
    if (!s.graph.hasRealTime()) {
      return;
    }
    final Transaction t = s.txns.txn(slot);
    ring.put(TIMES);
    ring.put(slot);
    ring.put(t.start());
    ring.put(t.end());
  }

  /** The step's edges, then the step's commit ({@link CycleDetector#commit}); clears {@code edges}. */
  void commit(final StepEdges edges) {
    for (int i = 0; i < edges.size(); i++) {
      final int from = edges.from(i);
      final int to = edges.to(i);
      ring.put(EDGE);
      ring.put(pair(from, to));
      ring.put(pair(edges.kind(i), edges.version(i)));
      ring.put(pair(position(from), position(to)));
    }
    ring.put(COMMIT);
    ring.publish();
    edges.clear();
  }

  /** Whether some group was refused so far (the graph thread may lag behind). */
  boolean refused() {
    return refused;
  }

  /**
   * Ends the graph thread once it took everything given and returns whether every group was
   * accepted (the graphs are then the engine's again). Rethrows what the graph thread threw.
   */
  boolean finish() {
    ring.put(END);
    ring.publish();
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (final InterruptedException e) {
        // The graph thread is ending on its own (END is queued): wait for it, keep the interrupt.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return !refused;
  }

  /** A slot's π position now, as {@link CycleDetector} reads it at the commit; a time point's is its own. */
  private int position(final int endpoint) {
    return endpoint >= 0 ? s.txns.piPos(endpoint) : 0;
  }

  private static long pair(final int high, final int low) {
    return ((long) high << 32) | (low & LOW);
  }

  // The graph thread's side.

  private void run() {
    try {
      consume();
      io.isowatch.core.debug.DebugTimings.mark("graph thread: done" + (refused ? " (refused a group)" : ""));
    } catch (final Throwable t) {
      failure = t;
      refused = true;
      drain();
    }
  }

  private void consume() {
    while (true) {
      final long op = ring.take();
      if (op == NODE) {
        final int slot = (int) ring.take();
        positions.set(slot, (int) ring.take());
        s.graph.addTransaction(slot);
      } else if (op == TIMES) {
        final int slot = (int) ring.take();
        final long start = ring.take();
        final long end = ring.take();
        s.graph.addTimes(slot, start, end, step);
      } else if (op == EDGE) {
        final long ends = ring.take();
        final long kindAndVersion = ring.take();
        final long at = ring.take();
        final int from = (int) (ends >> 32);
        final int to = (int) ends;
        if (from >= 0) {
          positions.set(from, (int) (at >> 32));
        }
        if (to >= 0) {
          positions.set(to, (int) at);
        }
        step.add(from, to, (int) (kindAndVersion >> 32), (int) kindAndVersion);
      } else if (op == COMMIT) {
        if (detector.commitRefusing(step)) {
          refused = true;
          drain();
          return;
        }
      } else if (op == END) {
        return;
      } else {
        throw new IllegalStateException("graph thread: unknown message " + op);
      }
    }
  }

  /** After a refusal: takes and drops everything up to END, so that the engine's side never waits for room. */
  private void drain() {
    while (true) {
      final long op = ring.take();
      final int skip = op == NODE ? 2 : op == TIMES || op == EDGE ? 3 : 0;
      for (int i = 0; i < skip; i++) {
        ring.take();
      }
      if (op == END) {
        return;
      }
    }
  }
}
