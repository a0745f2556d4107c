package io.isowatch.core.gen;

import io.isowatch.core.history.History;
import io.isowatch.core.history.LongList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates list-append histories as a list-append database produces them under Elle's
 * list-append workload (issue 14, item 5): each transaction has 1 to {@code ops} operations
 * (uniformly), each an append of the key's next element (1, 2, ... per key, so every element is
 * unique) or, with probability {@code readRatio}, a read of the whole list. Keys rotate as in
 * Elle's generator: {@code keys} keys are active at a time; a key that got {@code maxWritesPerKey}
 * appends retires and a fresh key takes its slot, so lists stay short however long the history is.
 *
 * <p>The simulated database commits one transaction at a time, at a commit point inside the
 * transaction's [start, end] interval ({@link RegisterHistoryGenerator} has the same clock).
 *
 * <ul>
 *   <li>{@link SimulatedLevel#SER}: a transaction reads the lists at its commit point (and its
 *       own appends): the history is strictly serializable.
 *   <li>{@link SimulatedLevel#SI}: it reads the snapshot at its start (and its own appends) and
 *       aborts when a transaction that committed after its start appended to a key it appends
 *       to (first-committer-wins): the history satisfies SI.
 * </ul>
 */
public final class ListAppendHistoryGenerator {
  /**
   * What to generate.
   *
   * @param seed random seed; equal configs give equal histories
   * @param transactions transactions in total
   * @param sessions client sessions {@code s0..}
   * @param keys keys active at a time ({@code k0..}, then fresh names as keys retire)
   * @param ops the most operations of a transaction (each has 1 to {@code ops}, uniformly)
   * @param readRatio the probability that an operation is a read
   * @param maxWritesPerKey appends a key gets before it retires
   * @param level the simulated database
   */
  public record Config(long seed, long transactions, int sessions, int keys, int ops, double readRatio,
      int maxWritesPerKey, SimulatedLevel level) {
    /** Elle's list-append defaults: up to 4 operations, 32 appends per key. */
    public static final int DEFAULT_OPS = 4;
    public static final int DEFAULT_MAX_WRITES_PER_KEY = 32;

    public Config {
      if (transactions < 1 || sessions < 1 || keys < 1 || ops < 1 || maxWritesPerKey < 1 || readRatio < 0
          || readRatio > 1) {
        throw new IllegalArgumentException("list-append workload: transactions, sessions, keys, ops and max writes per"
            + " key must be >= 1, the read ratio in [0, 1]");
      }
    }
  }

  /** Microseconds between two commit points. */
  private static final long STEP = 10;

  private ListAppendHistoryGenerator() {}

  /** One key's committed list: its elements and the commit point of each. */
  private static final class KeyState {
    final String name;
    long[] elements = new long[8];
    long[] committedAt = new long[8];
    int size;
    /** Elements handed out so far (committed or not): the next append gets {@code issued + 1}. */
    int issued;

    KeyState(final String name) {
      this.name = name;
    }

    void commit(final long element, final long at) {
      if (size == elements.length) {
        elements = Arrays.copyOf(elements, size * 2);
        committedAt = Arrays.copyOf(committedAt, size * 2);
      }
      elements[size] = element;
      committedAt[size++] = at;
    }

    /** The length of the list committed at or before {@code t}. */
    int lengthAt(final long t) {
      int lo = 0;
      int hi = size;
      while (lo < hi) {
        final int mid = (lo + hi) >>> 1;
        if (committedAt[mid] <= t) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    long lastCommit() {
      return size == 0 ? Long.MIN_VALUE : committedAt[size - 1];
    }
  }

  /** Generates the history into memory. */
  public static GeneratedHistory generateWithSummary(final Config c) {
    final History.Builder b = History.builder();
    final GenerationSummary s;
    try {
      s = generate(c, b::add);
    } catch (final IOException e) {
      throw new IllegalStateException("an in-memory sink does not fail", e);
    }
    return new GeneratedHistory(b.build(), s);
  }

  public static GenerationSummary generate(final Config c, final TransactionSink sink) throws IOException {
    final SplittableRandom rnd = new SplittableRandom(c.seed());
    final KeyState[] active = new KeyState[c.keys()];
    int nextKey = 0;
    for (int k = 0; k < active.length; k++) {
      active[k] = new KeyState("k" + nextKey++);
    }
    final long[] freeAt = new long[c.sessions()];
    final long[] seq = new long[c.sessions()];
    final long span = Math.max(2, c.sessions() * STEP / 2);
    final KeyState[] touched = new KeyState[c.ops()];
    final long[] appended = new long[c.ops()];
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
      final long end = now + 1 + rnd.nextLong(STEP);
      freeAt[s] = end;
      final long snapshot = c.level() == SimulatedLevel.SI ? start : now;
      final int length = 1 + rnd.nextInt(c.ops());
      final List<Op> ops = new ArrayList<>(length);
      int appends = 0;
      boolean conflict = false;
      for (int o = 0; o < length; o++) {
        final int slot = rnd.nextInt(active.length);
        final KeyState key = active[slot];
        if (rnd.nextDouble() < c.readRatio()) {
          ops.add(Op.readList(key.name, read(key, snapshot, touched, appended, appends)));
        } else {
          final long element = ++key.issued;
          ops.add(Op.append(key.name, element));
          touched[appends] = key;
          appended[appends++] = element;
          conflict |= c.level() == SimulatedLevel.SI && key.lastCommit() > start;
          if (key.issued == c.maxWritesPerKey()) {
            active[slot] = new KeyState("k" + nextKey++); // retired: no later transaction touches it
          }
        }
      }
      if (!conflict) {
        for (int a = 0; a < appends; a++) {
          touched[a].commit(appended[a], now);
        }
        committed++;
      } else {
        aborted++;
      }
      sink.accept(new Transaction("t" + i, "s" + s, seq[s]++, conflict ? TxnStatus.ABORTED : TxnStatus.COMMITTED,
          start, end, ops, null, null, 0));
    }
    return new GenerationSummary(c.transactions(), committed, aborted, List.of());
  }

  /** The list the transaction reads: the committed prefix at its snapshot, then its own appends so far. */
  private static List<Long> read(final KeyState key, final long snapshot, final KeyState[] touched,
      final long[] appended, final int appends) {
    final int visible = key.lengthAt(snapshot);
    int own = 0;
    for (int a = 0; a < appends; a++) {
      own += touched[a] == key ? 1 : 0;
    }
    final long[] list = Arrays.copyOf(key.elements, visible + own);
    int at = visible;
    for (int a = 0; a < appends; a++) {
      if (touched[a] == key) {
        list[at++] = appended[a];
      }
    }
    return LongList.of(list);
  }
}
