package io.isowatch.core.oracle;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.history.History;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Small random histories (at most 7 transactions on at most 3 keys) for property tests, fully
 * determined by a seed.
 *
 * <p>Each history comes from a simulated execution under one {@link Mode} (serial, serial in an
 * order unrelated to real time, snapshot isolation with the occasional lost update, read committed,
 * or arbitrary stale reads), with mini-transaction shapes (R1, R1R2, R1W1, R1R2W2, R1R2W1W2,
 * R1W1R2W2, internal reads, read-only transactions of up to 4 reads, rare longer read-modify-write
 * transactions). On top of that, with small probabilities: aborted and unknown transactions, blind
 * writes, duplicate written values, thin-air, aborted, intermediate and intra-transaction faulty
 * reads, timestamps (absent, present, partly present, or with one session's clock skewed),
 * session seq numbers with shuffled lines, a null or non-zero initial value and an RT skew.
 */
public final class RandomHistories {
  /** Keeps the oracle's enumeration (version orders × writer choices) cheap. */
  private static final long MAX_ORACLE_CHOICES = 2_000L;

  private static final String[] KEYS = {"x", "y", "z"};

  /** Mini-transaction shapes as op codes over key slots, with weights. */
  private static final List<Shape> MT_SHAPES = List.of(
      new Shape("r0", 10),
      new Shape("r0 r1", 10),
      new Shape("r0 w0", 18),
      new Shape("r0 r1 w1", 14),
      new Shape("r0 r1 w0 w1", 10),
      new Shape("r0 w0 r1 w1", 10),
      new Shape("r0 w0 r0", 4),
      new Shape("r0 r1 r2", 5),
      new Shape("r0 r1 r2 r0", 3),
      new Shape("r0 w0 r1 w1 w0 r0", 2),
      new Shape("r0 r1 r2 w0 w1 w2", 2));

  /** Read two keys, write one: two of these running concurrently under SI make a write skew. */
  private static final Shape WRITE_SKEW_SHAPE = new Shape("r0 r1 w0", 1);

  /** Shapes with a write not preceded by a read of its key. */
  private static final List<Shape> BLIND_SHAPES = List.of(
      new Shape("w0", 3),
      new Shape("r0 w1", 3),
      new Shape("w0 r0", 2),
      new Shape("w0 w1", 1),
      new Shape("r0 w0 w1", 1));

  /** How the simulated database behaves. */
  public enum Mode {
    /** Each transaction runs atomically at its end: strictly serializable. */
    SERIAL(false),
    /** Transactions run atomically in a random order, mostly respecting sessions. */
    VIRTUAL_SERIAL(false),
    /** Like SERIAL, but read-only transactions read a somewhat stale state (follower reads). */
    FOLLOWER_READS(false),
    /** Reads from the snapshot at begin; first committer wins (mostly). */
    SNAPSHOT(true),
    /** Each read sees the latest committed version at its time. */
    READ_COMMITTED(true),
    /** Each read sees some committed version, often an old one. */
    STALE(true);

    private final boolean eventLevel;

    Mode(final boolean eventLevel) {
      this.eventLevel = eventLevel;
    }

    /** True when reads happen at their own step rather than all at once. */
    boolean eventLevel() {
      return eventLevel;
    }
  }

  /**
   * One generated history.
   *
   * @param seed the seed that reproduces it
   * @param dsl the history in the test language (what {@link #history} was parsed from)
   * @param history the history
   * @param options the options to check it with
   * @param mode the simulated behaviour
   * @param traits what else was mixed in (faults, blind writes, timestamps, ...)
   */
  public record Generated(
      long seed, String dsl, History history, CheckOptions options, Mode mode, List<String> traits) {
    public Generated {
      traits = List.copyOf(traits);
    }

    /** Everything needed to reproduce a failure by hand. */
    public String describe() {
      return "seed=" + seed + " mode=" + mode + " traits=" + traits
          + " initialValue=" + options.initialValue() + " rtSkewMicros=" + options.rtSkewMicros()
          + "\n" + dsl;
    }
  }

  private RandomHistories() {}

  public static Generated generate(final long seed) {
    return generate(seed, false);
  }

  /** Like {@link #generate(long)}, but every history has the blind-writes trait. */
  public static Generated generateWithBlindWrites(final long seed) {
    return generate(seed, true);
  }

  /**
   * Like {@link #generateWithBlindWrites(long)}, but every history also has the duplicate-values
   * trait: a write repeats an earlier value of its key with probability 0.3, so reads of such a
   * value have several candidate writers.
   */
  public static Generated generateWithBlindWritesAndDuplicates(final long seed) {
    return generate(seed, true, true);
  }

  private static Generated generate(final long seed, final boolean forceBlind) {
    return generate(seed, forceBlind, false);
  }

  private static Generated generate(final long seed, final boolean forceBlind, final boolean forceDuplicates) {
    final Random rnd = new Random(seed);
    while (true) {
      final Generated g = attempt(seed, rnd, forceBlind, forceDuplicates);
      if (oracleChoices(g.history()) <= MAX_ORACLE_CHOICES) {
        return g;
      }
    }
  }

  private static Generated attempt(final long seed, final Random rnd, final boolean forceBlind,
      final boolean forceDuplicates) {
    final Mode mode = pickMode(rnd);
    final List<String> traits = new ArrayList<>();
    final Long initial = pickInitialValue(rnd);
    final long skew = rnd.nextDouble() < 0.8 ? 0L : new long[] {5L, 10L, 25L}[rnd.nextInt(3)];
    final CheckOptions options = CheckOptions.defaults().withInitialValue(initial).withRtSkewMicros(skew);

    // The draw comes first so that generate(seed) gives the same histories as before.
    final boolean blind = rnd.nextDouble() < 0.12 || forceBlind;
    if (blind) {
      traits.add("blind-writes");
    }
    final List<TxnDraft> txns = plan(rnd, blind, mode);

    final boolean duplicates = rnd.nextDouble() < 0.06 || forceDuplicates;
    if (duplicates) {
      traits.add("duplicate-values");
    }
    final ValueSource values = new ValueSource(rnd, initial, duplicates ? 0.3 : 0.0);
    final double abortP = rnd.nextDouble() < 0.7 ? 0.0 : 0.15;
    final double unknownP = rnd.nextDouble() < 0.7 ? 0.0 : 0.2;
    new ExecutionSimulator(rnd, mode, initial, values, abortP, unknownP).run(txns);
    traits.addAll(new FaultInjector(rnd, txns, values).injectAll());
    traits.add(adjustTimes(rnd, txns));

    final List<TxnDraft> lines = new ArrayList<>(txns);
    if (rnd.nextDouble() < 0.2) {
      assignSeqAndShuffle(rnd, lines);
      traits.add("seq");
    }
    final StringBuilder dsl = new StringBuilder();
    lines.forEach(t -> dsl.append(t.render()).append('\n'));
    final String text = dsl.toString();
    return new Generated(seed, text, HistoryDsl.history(text), options, mode, traits);
  }

  private static Mode pickMode(final Random rnd) {
    final int p = rnd.nextInt(100);
    if (p < 20) {
      return Mode.SERIAL;
    } else if (p < 32) {
      return Mode.VIRTUAL_SERIAL;
    } else if (p < 45) {
      return Mode.FOLLOWER_READS;
    } else if (p < 70) {
      return Mode.SNAPSHOT;
    } else if (p < 87) {
      return Mode.READ_COMMITTED;
    }
    return Mode.STALE;
  }

  private static Long pickInitialValue(final Random rnd) {
    final int p = rnd.nextInt(100);
    if (p < 80) {
      return 0L;
    }
    return p < 92 ? null : 7L;
  }

  private static List<TxnDraft> plan(final Random rnd, final boolean blind, final Mode mode) {
    final int n = 2 + rnd.nextInt(6);
    // Two keys make write skew (SI but not SER) likely under snapshot isolation.
    final int keys = mode == Mode.SNAPSHOT && rnd.nextBoolean() ? 2 : 1 + Math.min(rnd.nextInt(4), 2);
    // Concurrency needs several sessions; the modes whose anomalies need it always get them.
    final boolean concurrent = mode == Mode.SNAPSHOT || mode == Mode.FOLLOWER_READS;
    final int sessions = concurrent ? 2 + rnd.nextInt(Math.min(3, n - 1)) : 1 + rnd.nextInt(Math.min(4, n));
    final List<TxnDraft> txns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final TxnDraft t = new TxnDraft("T" + (i + 1), "s" + (1 + rnd.nextInt(sessions)));
      final Shape shape;
      if (blind && rnd.nextDouble() < 0.3) {
        shape = pick(rnd, BLIND_SHAPES);
      } else if (mode == Mode.SNAPSHOT && rnd.nextDouble() < 0.4) {
        shape = WRITE_SKEW_SHAPE;
      } else {
        shape = pick(rnd, MT_SHAPES);
      }
      final List<String> slots = new ArrayList<>(List.of(KEYS).subList(0, keys));
      Collections.shuffle(slots, rnd);
      for (final String code : shape.codes().split(" ")) {
        final int slot = code.charAt(1) - '0';
        t.addOp(OpType.fromCode(code.substring(0, 1)), slots.get(slot % keys));
      }
      txns.add(t);
    }
    return txns;
  }

  private static Shape pick(final Random rnd, final List<Shape> shapes) {
    final int total = shapes.stream().mapToInt(Shape::weight).sum();
    int p = rnd.nextInt(total);
    for (final Shape s : shapes) {
      p -= s.weight();
      if (p < 0) {
        return s;
      }
    }
    throw new IllegalStateException("unreachable");
  }

  /** Keeps, drops, partly drops or skews the simulated times; returns the trait name. */
  private static String adjustTimes(final Random rnd, final List<TxnDraft> txns) {
    final int p = rnd.nextInt(100);
    if (p < 35) {
      txns.forEach(t -> {
        t.start = Transaction.NO_TIME;
        t.end = Transaction.NO_TIME;
      });
      return "no-times";
    } else if (p < 45) {
      final TxnDraft t = txns.get(rnd.nextInt(txns.size()));
      t.start = Transaction.NO_TIME;
      t.end = Transaction.NO_TIME;
      return "partial-times";
    } else if (p < 55) {
      // One client's clock runs behind: its transactions seem to start before what they saw.
      final String session = txns.get(rnd.nextInt(txns.size())).session;
      final long shift = 10L * (2 + rnd.nextInt(8));
      txns.stream().filter(t -> t.session.equals(session)).forEach(t -> {
        t.start -= shift;
        t.end -= shift;
      });
      return "skewed-clock";
    } else if (p < 70) {
      // Indeterminate transactions whose end the client never saw: they precede nothing in RT.
      txns.stream().filter(t -> t.status == TxnStatus.UNKNOWN).forEach(t -> t.end = Transaction.NO_TIME);
      return "times-unknown-unfinished";
    }
    return "times";
  }

  private static void assignSeqAndShuffle(final Random rnd, final List<TxnDraft> lines) {
    final Map<String, Integer> next = new HashMap<>();
    for (final TxnDraft t : lines) {
      t.seq = next.merge(t.session, 1, Integer::sum) - 1;
    }
    Collections.shuffle(lines, rnd);
  }

  /**
   * An upper bound of the oracle's enumeration: the product over keys of (number of non-aborted
   * writers)! times the product over external reads of the number of non-aborted last writers of the value.
   */
  static long oracleChoices(final History history) {
    final Map<String, Integer> writers = new LinkedHashMap<>();
    long product = 1;
    final List<Transaction> live = history.transactions().stream()
        .filter(t -> t.status() != TxnStatus.ABORTED)
        .toList();
    for (final Transaction t : live) {
      OracleRelations.lastWrites(t).keySet().forEach(k -> writers.merge(k, 1, Integer::sum));
    }
    for (final int w : writers.values()) {
      for (int i = 2; i <= w; i++) {
        product *= i;
      }
    }
    for (final Transaction r : live) {
      for (final Map.Entry<String, Long> read : BruteForceOracle.firstExternalReads(r).entrySet()) {
        final long sources = live.stream()
            .filter(w -> w != r)
            .map(OracleRelations::lastWrites)
            .filter(ws -> ws.containsKey(read.getKey()))
            .filter(ws -> Objects.equals(ws.get(read.getKey()), read.getValue()))
            .count();
        product *= Math.max(1, sources);
      }
    }
    return product;
  }

  /** Another source order: sessions interleaved at random, each session's order kept. */
  public static History interleaveSessions(final History history, final Random rnd) {
    final Map<String, List<Transaction>> bySession = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      bySession.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    final List<List<Transaction>> queues = new ArrayList<>(bySession.values());
    final History.Builder b = History.builder();
    while (!queues.isEmpty()) {
      final int q = rnd.nextInt(queues.size());
      b.add(queues.get(q).remove(0));
      if (queues.get(q).isEmpty()) {
        queues.remove(q);
      }
    }
    return b.build();
  }

  private record Shape(String codes, int weight) {}
}
