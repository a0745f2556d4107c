package io.isowatch.core.oracle;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Small random histories (2 to 7 committed transactions, 1 to 3 keys, 1 to 4 sessions) built to
 * land on every boundary between the weak levels, fully determined by a seed. {@link
 * RandomHistories} simulates databases (serial, snapshot, read committed) and rarely produces a
 * long fork or a causality violation; here each history is made under one {@link Visibility} rule
 * that satisfies one level by construction and breaks the next stronger one by chance.
 *
 * <p>Construction: transactions commit one after the other in the order they are generated (a
 * commit order co that respects sessions, since sessions are assigned in that order). A
 * transaction's writes are installed at its commit; each of its external reads returns the
 * co-latest version of the key among the transactions visible to it (T0 always), where the visible
 * set comes from the rule. Writes follow a read of their key (mini-transactions) except, with a
 * small probability per history, blind ones. Every written value is fresh, so wr is unique, and
 * every transaction commits.
 */
public final class WeakHistories {
  private static final String[] KEYS = {"x", "y", "z"};

  /** Mini-transaction shapes over key slots (r = read, w = write). */
  private static final String[] SHAPES = {
    "r0", "r0 r1", "r0 w0", "r0 w0", "r0 r1 w1", "r0 r1 w0 w1", "r0 w0 r1 w1", "r0 r1 r2", "r0 r1 r0"
  };

  private static final String[] BLIND_SHAPES = {"w0", "r0 w1", "w0 w1"};

  /** Which committed transactions a transaction (or a read) sees: the level it guarantees. */
  public enum Visibility {
    /** Everything committed before: serializable (the order of generation is a serial order). */
    SERIAL,
    /** A prefix of the commit order that contains the session's earlier transactions: PC. */
    PREFIX,
    /** A random set of committed transactions closed under so ∪ wr and containing the session: CC. */
    CAUSAL,
    /** A random set of committed transactions that contains the session, not closed: RA. */
    ATOMIC,
    /** Per read, a set that only grows within the transaction: RC. */
    MONOTONIC_READS,
    /** Per read, any committed version: nothing is promised. */
    ANY;

    /** The strongest level every history of this rule satisfies by construction (ANY: none). */
    public WeakLevel guarantees() {
      return switch (this) {
        case SERIAL -> WeakLevel.SER;
        case PREFIX -> WeakLevel.PC;
        case CAUSAL -> WeakLevel.CC;
        case ATOMIC -> WeakLevel.RA;
        case MONOTONIC_READS -> WeakLevel.RC;
        case ANY -> null;
      };
    }
  }

  /**
   * One generated history.
   *
   * @param seed the seed that reproduces it
   * @param dsl the history in the test language
   * @param history the history
   * @param options the options to check it with (initial value 0)
   * @param visibility the rule it was made under
   * @param blind whether some write is blind
   */
  public record Generated(
      long seed, String dsl, History history, CheckOptions options, Visibility visibility, boolean blind) {
    public String describe() {
      return "seed=" + seed + " visibility=" + visibility + " blind=" + blind + "\n" + dsl;
    }
  }

  private WeakHistories() {}

  public static Generated generate(final long seed) {
    final Random rnd = new Random(seed);
    final Visibility visibility = Visibility.values()[rnd.nextInt(Visibility.values().length)];
    final boolean blind = rnd.nextDouble() < 0.15;
    final int n = 2 + rnd.nextInt(6);
    // A long fork (CC but not PC) and a write skew (PC but not SER) need two keys.
    final boolean twoKeysAtLeast = visibility == Visibility.CAUSAL || visibility == Visibility.PREFIX;
    final int keys = twoKeysAtLeast ? 2 + rnd.nextInt(2) : 1 + rnd.nextInt(3);
    final int sessions = 1 + rnd.nextInt(Math.min(4, n));
    return new Builder(rnd, visibility, keys).build(seed, n, sessions, blind);
  }

  /** The state of one generation. */
  private static final class Builder {
    private final Random rnd;
    private final Visibility visibility;
    private final int keyCount;
    /** Per committed transaction (index = commit position): its session, its writes, what it read from. */
    private final List<String> sessionOf = new ArrayList<>();
    private final List<Map<String, Long>> writesOf = new ArrayList<>();
    /** Direct so ∪ wr predecessors of each committed transaction. */
    private final List<BitSet> preds = new ArrayList<>();
    private long nextValue = 1;

    Builder(final Random rnd, final Visibility visibility, final int keyCount) {
      this.rnd = rnd;
      this.visibility = visibility;
      this.keyCount = keyCount;
    }

    Generated build(final long seed, final int n, final int sessions, final boolean blind) {
      final StringBuilder dsl = new StringBuilder();
      for (int i = 0; i < n; i++) {
        final String session = "s" + (1 + rnd.nextInt(sessions));
        final String shape = blind && rnd.nextDouble() < 0.3
            ? BLIND_SHAPES[rnd.nextInt(BLIND_SHAPES.length)]
            : SHAPES[rnd.nextInt(SHAPES.length)];
        dsl.append(transaction(i, session, shape)).append('\n');
      }
      final String text = dsl.toString();
      return new Generated(seed, text, HistoryDsl.history(text), CheckOptions.defaults(), visibility, blind);
    }

    /** Runs transaction {@code i} against the transactions committed before it; returns its line. */
    private String transaction(final int i, final String session, final String shape) {
      final List<String> slots = new ArrayList<>(List.of(KEYS).subList(0, keyCount));
      Collections.shuffle(slots, rnd);
      final BitSet sessionPreds = new BitSet();
      for (int j = 0; j < i; j++) {
        if (sessionOf.get(j).equals(session)) {
          sessionPreds.set(j);
        }
      }
      final BitSet direct = (BitSet) sessionPreds.clone();
      BitSet visible = transactionVisible(i, sessionPreds);
      final Map<String, Long> written = new HashMap<>();
      final StringBuilder line = new StringBuilder("T").append(i + 1).append(' ').append(session);
      for (final String code : shape.split(" ")) {
        final String key = slots.get((code.charAt(1) - '0') % keyCount);
        if (code.charAt(0) == 'w') {
          final long v = nextValue++;
          written.put(key, v);
          line.append(" w(").append(key).append(',').append(v).append(')');
          continue;
        }
        if (written.containsKey(key)) {
          line.append(" r(").append(key).append(',').append(written.get(key)).append(')');
          continue;
        }
        visible = readVisible(i, visible);
        final int writer = latestWriter(key, visible);
        if (writer >= 0) {
          direct.set(writer);
        }
        line.append(" r(").append(key).append(',').append(writer < 0 ? 0L : writesOf.get(writer).get(key)).append(')');
      }
      sessionOf.add(session);
      writesOf.add(written);
      preds.add(direct);
      return line.toString();
    }

    /** The set a transaction starts with (per-read rules start from its session). */
    private BitSet transactionVisible(final int i, final BitSet sessionPreds) {
      final BitSet v = (BitSet) sessionPreds.clone();
      switch (visibility) {
        case SERIAL -> v.set(0, i);
        case PREFIX -> {
          final int floor = sessionPreds.isEmpty() ? 0 : sessionPreds.length();
          v.set(0, floor + rnd.nextInt(i - floor + 1));
        }
        case CAUSAL -> {
          // Sparser than the other rules: a fork needs transactions that miss each other.
          v.or(randomSubset(i).get(0, Math.max(0, i - 1 - rnd.nextInt(Math.max(1, i)))));
          close(v);
        }
        case ATOMIC -> v.or(randomSubset(i));
        case MONOTONIC_READS, ANY -> { }
      }
      return v;
    }

    /** The set one read sees, given the set the previous read saw. */
    private BitSet readVisible(final int i, final BitSet before) {
      return switch (visibility) {
        case MONOTONIC_READS -> {
          final BitSet v = (BitSet) before.clone();
          v.or(randomSubset(i));
          yield v;
        }
        case ANY -> randomSubset(i);
        default -> before;
      };
    }

    /** Each of the first {@code i} transactions with probability one half. */
    private BitSet randomSubset(final int i) {
      final BitSet s = new BitSet();
      for (int j = 0; j < i; j++) {
        if (rnd.nextBoolean()) {
          s.set(j);
        }
      }
      return s;
    }

    /** Closes {@code v} under the so ∪ wr predecessors of its members. */
    private void close(final BitSet v) {
      for (int j = v.length() - 1; j >= 0; j--) {
        if (v.get(j)) {
          v.or(preds.get(j));
        }
      }
    }

    /** The co-latest visible transaction that writes {@code key}, or -1 for T0. */
    private int latestWriter(final String key, final BitSet visible) {
      for (int j = visible.length() - 1; j >= 0; j--) {
        if (visible.get(j) && writesOf.get(j).containsKey(key)) {
          return j;
        }
      }
      return -1;
    }
  }
}
