package io.isowatch.core.gen;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates rw-register histories with <em>blind writes</em>, in the style of PolySI's and Cobra's
 * benchmarks (issue 14): each transaction has {@code ops} operations on keys drawn from the
 * configured {@link KeyDistribution} (uniform by default; PolySI's default workload is zipfian), a
 * read with probability {@code readRatio}, otherwise a write of the key's next counter value with
 * no read of the key first. So the version order of most keys is not determined by the history.
 *
 * <p>The simulated database commits transactions one at a time, in the order of their commit
 * points, each inside its own [start, end] interval and less than 10 µs before its end (the client
 * sees the acknowledgement shortly after the commit); sessions overlap in time.
 *
 * <ul>
 *   <li>{@link SimulatedLevel#SER}: a transaction reads the state at its commit point: the
 *       history is strictly serializable.
 *   <li>{@link SimulatedLevel#SI}: it reads the snapshot at its start (and its own writes), and
 *       aborts when a transaction that committed after its start wrote a key it writes
 *       (first-committer-wins): the history satisfies SI, and write skews may violate SER.
 * </ul>
 */
public final class RegisterHistoryGenerator {
  /**
   * What to generate.
   *
   * @param seed random seed; equal configs give equal histories
   * @param transactions transactions in total
   * @param sessions client sessions {@code s0..}
   * @param keys keys {@code k0..}, all starting at 0
   * @param ops operations per transaction
   * @param readRatio the probability that an operation is a read
   * @param level the simulated database
   * @param distribution how an operation picks its key ({@link KeyDistribution}: uniform, zipfian
   *     as in PolySI's default workload, hotspot, exponential)
   */
  public record Config(long seed, long transactions, int sessions, int keys, int ops, double readRatio,
      SimulatedLevel level, KeyDistribution distribution) {
    public Config {
      if (transactions < 1 || sessions < 1 || keys < 1 || ops < 1 || readRatio < 0 || readRatio > 1
          || distribution == null) {
        throw new IllegalArgumentException("rw-register workload: transactions, sessions, keys and ops must be >= 1,"
            + " the read ratio in [0, 1], a key distribution given");
      }
    }

    /** Keys drawn uniformly (the histories generated before the distribution was an option). */
    public Config(final long seed, final long transactions, final int sessions, final int keys, final int ops,
        final double readRatio, final SimulatedLevel level) {
      this(seed, transactions, sessions, keys, ops, readRatio, level, new KeyDistribution.Uniform());
    }
  }

  /** Microseconds between two commit points. */
  private static final long STEP = 10;

  private RegisterHistoryGenerator() {}

  public static GenerationSummary generate(final Config c, final TransactionSink sink) throws IOException {
    final SplittableRandom rnd = new SplittableRandom(c.seed());
    final KeySampler keys = c.distribution().sampler(c.keys());
    final long[] next = new long[c.keys()];
    // Per key, its committed versions: commit times and values (the SI snapshot reads them).
    final long[][] versionTime = new long[c.keys()][];
    final long[][] versionValue = new long[c.keys()][];
    final int[] versions = new int[c.keys()];
    for (int k = 0; k < c.keys(); k++) {
      versionTime[k] = new long[4];
      versionValue[k] = new long[4];
      addVersion(versionTime, versionValue, versions, k, Long.MIN_VALUE, 0);
    }
    final long[] freeAt = new long[c.sessions()];
    final long[] seq = new long[c.sessions()];
    // Sessions overlap: a transaction spans about half the sessions' commit points.
    final long span = Math.max(2, c.sessions() * STEP / 2);
    long committed = 0;
    long aborted = 0;
    long now = 1_000_000;
    for (long i = 0; i < c.transactions(); i++) {
      now += STEP;
      int s = rnd.nextInt(c.sessions());
      for (int tries = 0; freeAt[s] >= now && tries < c.sessions(); tries++) {
        s = (s + 1) % c.sessions();
      }
      while (freeAt[s] >= now) {
        now += STEP;
      }
      final long start = Math.max(freeAt[s] + 1, now - rnd.nextLong(span));
      // The client sees the commit acknowledged shortly after the commit point, as from a database.
      final long end = now + 1 + rnd.nextLong(STEP);
      freeAt[s] = end;
      final long snapshot = c.level() == SimulatedLevel.SI ? start : now;
      final List<Op> ops = new ArrayList<>(c.ops());
      final int[] written = new int[c.ops()];
      final long[] writtenValue = new long[c.ops()];
      int writes = 0;
      boolean conflict = false;
      for (int o = 0; o < c.ops(); o++) {
        final int k = keys.next(rnd);
        final String key = "k" + k;
        if (rnd.nextDouble() < c.readRatio()) {
          long own = -1;
          for (int w = writes - 1; w >= 0 && own < 0; w--) {
            own = written[w] == k ? writtenValue[w] : -1;
          }
          ops.add(Op.read(key, own >= 0 ? own : valueAt(versionTime[k], versionValue[k], versions[k], snapshot)));
        } else {
          final long v = ++next[k];
          ops.add(Op.write(key, v));
          written[writes] = k;
          writtenValue[writes++] = v;
          conflict |= c.level() == SimulatedLevel.SI && versionTime[k][versions[k] - 1] > start;
        }
      }
      final TxnStatus status = conflict ? TxnStatus.ABORTED : TxnStatus.COMMITTED;
      if (!conflict) {
        for (int w = 0; w < writes; w++) {
          // The transaction's last write of each key is its version.
          boolean last = true;
          for (int later = w + 1; later < writes && last; later++) {
            last = written[later] != written[w];
          }
          if (last) {
            addVersion(versionTime, versionValue, versions, written[w], now, writtenValue[w]);
          }
        }
        committed++;
      } else {
        aborted++;
      }
      sink.accept(new Transaction("t" + i, "s" + s, seq[s]++, status, start, end, ops, null, null, 0));
    }
    return new GenerationSummary(c.transactions(), committed, aborted, List.of());
  }

  private static void addVersion(final long[][] time, final long[][] value, final int[] count, final int k,
      final long at, final long v) {
    if (count[k] == time[k].length) {
      time[k] = Arrays.copyOf(time[k], count[k] * 2);
      value[k] = Arrays.copyOf(value[k], count[k] * 2);
    }
    time[k][count[k]] = at;
    value[k][count[k]++] = v;
  }

  /** The value of the latest version committed at or before {@code t}. */
  private static long valueAt(final long[] time, final long[] value, final int count, final long t) {
    int lo = 0;
    int hi = count - 1;
    while (lo < hi) {
      final int mid = (lo + hi + 1) >>> 1;
      if (time[mid] <= t) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return value[lo];
  }
}
