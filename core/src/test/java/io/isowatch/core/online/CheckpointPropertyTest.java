package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.oracle.RandomHistories;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A restored engine is the engine that made the checkpoint (docs/segmentation.md, "Checkpoints"):
 * generated histories (MT executions with injected anomalies, stale reads and snapshot
 * transactions; and long concatenations of small random histories with aborted, indeterminate,
 * blind, repeated and thin-air writes, null initial values, missing times and seq), with seq gaps,
 * retries, retries with other content, late transactions and arrivals shuffled within the grace,
 * go to engine A with a small horizon, so that many cuts happen. At random points A is asked to
 * prune; when it cuts, B is restored from A's checkpoint (or, half the time, an earlier B is kept
 * and pruned too). From then on both get the same arrivals and a final flush, and
 *
 * <ul>
 *   <li>every list of events they return is equal (anomalies by content, findings, verdict changes);
 *   <li>their counters and final results are equal (timings aside);
 *   <li>a kept B cuts exactly when A does, and its checkpoint equals A's (timings aside);
 *   <li>the checkpoint of a just-restored engine is the checkpoint it came from, byte for byte.
 * </ul>
 */
class CheckpointPropertyTest {
  private static final int HISTORIES = Integer.getInteger("isowatch.checkpoint.count", 48);

  @Test
  void shouldBehaveAsTheCheckpointedEngineWhenRestoredAfterAnyCut() {
    // Given
    final Totals totals = new Totals();
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < HISTORIES; i++) {
      final Random rnd = new Random(31_000 + i);
      final Case c = i % 2 == 0 ? mtCase(rnd, i) : randomCase(rnd, i);
      final List<Transaction> arrivals = arrivals(c.history(), c.grace(), rnd);

      // When / Then
      final String problem = run(c, arrivals, rnd, totals);
      if (problem != null) {
        failures.add("history " + i + " (" + c.describe() + "): " + problem);
      }
    }
    System.out.println("CheckpointPropertyTest: " + totals);
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " failures");
    // The test proves something only if checkpoints carried every part of the state somewhere.
    assertTrue(totals.restores > 8L * HISTORIES, "too few restores: " + totals.restores);
    assertTrue(totals.keptChecks > 4L * HISTORIES, "too few checkpoints of a kept B: " + totals.keptChecks);
    assertTrue(totals.checked > 0, "no checkpoint held an already-checked read");
    assertTrue(totals.checkedAbsent > 0, "no checkpoint held an already-checked absent read");
    assertTrue(totals.waiting > 0, "no checkpoint held a waiting read");
    assertTrue(totals.buffered > 0, "no checkpoint held a buffered transaction");
    assertTrue(totals.anomalies > 0, "no checkpoint carried a listed anomaly");
    assertTrue(totals.thinAir > 0, "no checkpoint held a thin-air read");
    assertTrue(totals.staleAfterRestore > 0, "no stale read was reported after a restore");
  }

  /** Feeds A (and B once restored) every arrival; returns the first difference, or null. */
  private static String run(final Case c, final List<Transaction> arrivals, final Random rnd, final Totals totals) {
    final OnlineChecker a = new OnlineChecker(c.options(), c.online());
    OnlineChecker b = null;
    final double pruneRate = 0.01 + rnd.nextDouble() * 0.05;
    for (int i = 0; i < arrivals.size(); i++) {
      final Transaction t = arrivals.get(i);
      final List<OnlineEvent> ea = a.accept(t);
      if (b != null) {
        final List<OnlineEvent> eb = b.accept(t);
        if (!ea.equals(eb)) {
          return "events differ after arrival " + i + " (" + t.id() + "):\n A: " + ea + "\n B: " + eb;
        }
        final String counters = counters(a, b);
        if (counters != null) {
          return counters + " after arrival " + i;
        }
      }
      if (rnd.nextDouble() >= pruneRate) {
        continue;
      }
      final boolean cutA = a.prune();
      if (b != null) {
        final boolean cutB = b.prune();
        if (cutA != cutB) {
          return "A " + (cutA ? "cut" : "did not cut") + ", B " + (cutB ? "cut" : "did not cut") + " at arrival " + i;
        }
      }
      if (!cutA) {
        continue;
      }
      final byte[] bytes = a.checkpoint();
      if (b != null) {
        if (!Arrays.equals(withoutTimings(bytes), withoutTimings(b.checkpoint()))) {
          return "after the same cut at arrival " + i + " B's checkpoint differs from A's";
        }
        totals.keptChecks++;
      }
      if (b == null || rnd.nextBoolean()) {
        b = OnlineChecker.restore(c.options(), c.online(), bytes);
        totals.restores++;
        totals.count(CheckpointReader.read(bytes));
        if (!b.checkpointable()) {
          return "a just-restored engine is not checkpointable";
        }
        assertArrayEquals(bytes, b.checkpoint(), "checkpoint of a just-restored engine");
      }
    }
    final List<OnlineEvent> fa = a.flush();
    if (b == null) {
      return null;
    }
    final List<OnlineEvent> fb = b.flush();
    if (!fa.equals(fb)) {
      return "flush events differ:\n A: " + fa + "\n B: " + fb;
    }
    if (!Results.withoutTime(a.result()).equals(Results.withoutTime(b.result()))) {
      return "results differ:\n A: " + Results.withoutTime(a.result()) + "\n B: " + Results.withoutTime(b.result());
    }
    totals.staleAfterRestore += b.staleReads() > 0 ? 1 : 0;
    return counters(a, b);
  }

  private static String counters(final OnlineChecker a, final OnlineChecker b) {
    final long[] ca = {a.buffered(), a.pendingReads(), a.retainedTransactions(), a.prunedTransactions(), a.cuts(),
        a.staleReads(), a.duplicatesIgnored(), a.lateTransactions(), a.repeatSeen() ? 1 : 0};
    final long[] cb = {b.buffered(), b.pendingReads(), b.retainedTransactions(), b.prunedTransactions(), b.cuts(),
        b.staleReads(), b.duplicatesIgnored(), b.lateTransactions(), b.repeatSeen() ? 1 : 0};
    return Arrays.equals(ca, cb) ? null : "counters differ: A " + Arrays.toString(ca) + ", B " + Arrays.toString(cb);
  }

  /** What the checkpoints held, summed, to show the test exercised every part. */
  private static final class Totals {
    long restores;
    long keptChecks;
    long checked;
    long checkedAbsent;
    long waiting;
    long buffered;
    long anomalies;
    long thinAir;
    long staleAfterRestore;

    @Override
    public String toString() {
      return restores + " restores, " + keptChecks + " checkpoints of a kept B, held: " + checked + " checked reads, "
          + checkedAbsent + " checked absent reads, " + waiting + " waiting reads, " + buffered + " buffered, "
          + anomalies + " carried anomalies, " + thinAir + " thin-air reads; " + staleAfterRestore
          + " histories with stale reads after a restore";
    }

    void count(final Checkpoint c) {
      checked += c.checked().sortedValues().length / 2;
      checkedAbsent += c.checked().absentKeys().length;
      waiting += c.waiting().size();
      buffered += c.segment().size() - c.segment().retained();
      anomalies += c.summary().anomalies.size();
      thinAir += c.thinAir().size();
    }
  }

  // ---- cases ----

  private record Case(String describe, History history, CheckOptions options, OnlineOptions online, long grace) {}

  /** An MT execution with injected anomalies, stale reads and (a third of the time) snapshots. */
  private static Case mtCase(final Random rnd, final int i) {
    final GeneratorConfig config = RandomMtConfigs.config(rnd, i, 500 + i, new RandomMtConfigs.Range(1_500, 1_500),
        new RandomMtConfigs.Range(3, 10), new RandomMtConfigs.Range(4, 40));
    History h = HistoryMutations.withStaleReads(MtHistoryGenerator.generateHistory(config), rnd,
        0.002 + rnd.nextDouble() * 0.02);
    final boolean snapshots = i % 3 == 2;
    if (snapshots) {
      h = HistoryMutations.withSnapshots(h, 30 + rnd.nextInt(100));
    }
    h = withGapsAndStatuses(h, rnd);
    final long txns = 15 + rnd.nextInt(150);
    final long micros = 25 * (15 + rnd.nextInt(150));
    final Horizon horizon = (switch (i % 4) {
      case 0 -> Horizon.ofTransactions(txns);
      case 2 -> Horizon.ofMicros(micros);
      default -> Horizon.ofTransactions(txns).withMicros(micros);
    }).withSnapshots(snapshots);
    final CheckOptions options = options(rnd, CheckOptions.defaults());
    final long grace = 200 + rnd.nextInt(3_000);
    // Self-cuts at other sizes than twice the horizon place the cuts elsewhere (one case in five).
    final double cutFactor = i % 5 == 4 ? 1.1 + (i % 3) * 1.7 : Horizon.DEFAULT_CUT_FACTOR;
    // Run-sets of retired versions: none (filters only), a few runs (runs and overflow), the default.
    final long runBytes = switch (i % 3) {
      case 0 -> 0;
      case 1 -> 4L * RetiredRuns.BYTES_PER_RUN;
      default -> Horizon.DEFAULT_MAX_RUN_BYTES;
    };
    final Horizon small = new Horizon(horizon.transactions(), horizon.micros(), horizon.onSnapshots(), 1 << 12,
        cutFactor).withMaxRunBytes(runBytes);
    return new Case("mt " + small, h, options, OnlineOptions.streaming(grace).withHorizon(small), grace);
  }

  /**
   * Many small random histories one after the other (ids, sessions and times shifted; keys shared
   * between some of them, so that values repeat), for the rare paths: aborted and indeterminate
   * writers, blind writes, thin-air reads, absent initial values, missing times and seq.
   */
  private static Case randomCase(final Random rnd, final int i) {
    final History.Builder b = History.builder();
    // Keys that start absent and are shared: later chunks read null where earlier ones wrote.
    final boolean absent = i % 4 == 1;
    final boolean sharedKeys = absent || rnd.nextInt(3) == 0;
    Long initial = null;
    final int chunks = 150 + rnd.nextInt(150);
    for (int c = 0; c < chunks; c++) {
      final RandomHistories.Generated g = RandomHistories.generate(77_000L * (i + 1) + c);
      if (c == 0 && !absent) {
        initial = g.options().initialValue();
      }
      final String prefix = "c" + c + "-";
      final String keys = sharedKeys ? "k" + (c % 5) + "-" : prefix;
      for (final Transaction t : g.history().transactions()) {
        final List<Op> ops = new ArrayList<>();
        for (final Op op : t.ops()) {
          ops.add(new Op(op.type(), keys + op.key(), op.value()));
        }
        final long shift = 1_000L * c;
        b.add(new Transaction(prefix + t.id(), prefix + t.session(), t.seq(), t.status(),
            t.start() == Transaction.NO_TIME ? t.start() : t.start() + shift,
            t.end() == Transaction.NO_TIME ? t.end() : t.end() + shift, ops, t.tenant(), t.level(), t.line()));
      }
    }
    final long txns = 5 + rnd.nextInt(40);
    final Horizon horizon = rnd.nextBoolean() ? Horizon.ofTransactions(txns)
        : Horizon.ofTransactions(txns).withMicros(1_000L * (3 + rnd.nextInt(20)));
    final CheckOptions options = options(rnd, CheckOptions.defaults().withInitialValue(initial));
    final long grace = 50 + rnd.nextInt(2_000);
    final Horizon small = new Horizon(horizon.transactions(), horizon.micros(), false, 1 << 10)
        .withMaxRunBytes(rnd.nextInt(3) * 3L * RetiredRuns.BYTES_PER_RUN);
    return new Case("random " + small + " initial=" + initial + " sharedKeys=" + sharedKeys,
        withGapsAndStatuses(b.build(), rnd), options, OnlineOptions.streaming(grace).withHorizon(small), grace);
  }

  /** Random levels (mostly all three) and a small anomaly cap half the time (listing truncated). */
  private static CheckOptions options(final Random rnd, final CheckOptions base) {
    final EnumSet<Level> levels = EnumSet.copyOf(Level.CLASSIC);
    if (rnd.nextInt(4) == 0) {
      levels.remove(Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])[rnd.nextInt(3)]);
    }
    return base.withLevels(levels).withMaxAnomalies(rnd.nextBoolean() ? 1 + rnd.nextInt(5) : 10_000);
  }

  /** Drops a few transactions (seq gaps) and turns a few into aborted or indeterminate ones. */
  private static History withGapsAndStatuses(final History h, final Random rnd) {
    final History.Builder b = History.builder();
    for (final Transaction t : h.transactions()) {
      final int r = rnd.nextInt(200);
      if (r == 0) {
        continue;
      }
      final TxnStatus status = r == 1 ? TxnStatus.ABORTED : r == 2 ? TxnStatus.UNKNOWN : t.status();
      b.add(new Transaction(t.id(), t.session(), t.seq(), status, t.start(), t.end(), t.ops(), t.tenant(), t.level(),
          t.line()));
    }
    return b.build();
  }

  // ---- arrivals ----

  /**
   * Each transaction arrives at its time plus a random delay within the grace (those without a
   * time anywhere), one in a hundred much later (late), one in eight again later (a retry), one in
   * three hundred again with other content.
   */
  private static List<Transaction> arrivals(final History h, final long grace, final Random rnd) {
    final List<Transaction> txns = h.transactions();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (final Transaction t : txns) {
      final long time = TxnIndex.timeKey(t);
      if (time != TxnIndex.NO_END) {
        min = Math.min(min, time);
        max = Math.max(max, time);
      }
    }
    final long span = min == Long.MAX_VALUE ? 1 : Math.max(1, max - min);
    final long from = min == Long.MAX_VALUE ? 0 : min;
    final List<Map.Entry<Long, Transaction>> keyed = new ArrayList<>();
    for (final Transaction t : txns) {
      final long time = TxnIndex.timeKey(t);
      long at = time == TxnIndex.NO_END ? from + (long) (rnd.nextDouble() * span) : time + (long) (rnd.nextDouble() * grace);
      if (rnd.nextInt(100) == 0) {
        at += 3 * grace + (long) (rnd.nextDouble() * 20 * grace);
      }
      keyed.add(Map.entry(at, t));
      if (rnd.nextInt(8) == 0) {
        keyed.add(Map.entry(at + (long) (rnd.nextDouble() * 10 * grace), t));
      } else if (rnd.nextInt(300) == 0) {
        keyed.add(Map.entry(at + 1, new Transaction(t.id(), t.session() + "-other", t.seq(), t.status(), t.start(),
            t.end(), t.ops(), t.tenant(), t.level(), t.line())));
      }
    }
    keyed.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
    return keyed.stream().map(Map.Entry::getValue).toList();
  }

  // ---- comparisons ----

  /** The checkpoint with its timings and checksum zeroed: the only bytes that depend on the machine. */
  static byte[] withoutTimings(final byte[] checkpoint) {
    final byte[] c = checkpoint.clone();
    Arrays.fill(c, CheckpointFormat.TIMINGS_OFFSET, CheckpointFormat.HEADER, (byte) 0);
    Arrays.fill(c, c.length - CheckpointFormat.CHECKSUM, c.length, (byte) 0);
    return c;
  }

}
