package io.isowatch.agent.workload;

import io.isowatch.core.gen.KeySampler;
import io.isowatch.core.gen.MtShape;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Draws the transaction plans of one session: a shape (uniformly, or by read-only ratio), keys
 * for its slots from the key distribution (distinct when the shape has two slots), and fresh
 * values for its writes, unique per key ({@link ValueEncoder}). Not thread-safe: one per session.
 */
public final class SessionWorkload {
  private static final int MAX_REDRAWS = 1000;
  /** The shape names of list-append transactions: read-only, and with at least one append. */
  public static final String LIST_READ = "LIST-READ";
  public static final String LIST_APPEND = "LIST-APPEND";

  private final WorkloadConfig config;
  private final SplittableRandom random;
  private final KeySampler keySampler;
  private final KeySampler pairSampler;
  private final ValueEncoder values;
  private final CasHints hints;
  private final List<MtShape> readOnly;
  private final List<MtShape> writing;

  /**
   * @param sessionIndex 0-based session index; the value encoder uses {@code sessionIndex + 1} as
   *     client id
   */
  public SessionWorkload(final WorkloadConfig config, final int sessionIndex, final CasHints hints) {
    this.config = config;
    // A distinct, reproducible stream per session.
    this.random = new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + sessionIndex);
    this.keySampler = config.distribution().sampler(config.keys().size());
    this.pairSampler = config.shapes().pairedKeys()
        ? config.distribution().sampler(Math.max(1, config.keys().size() / 2)) : null;
    this.values = new ValueEncoder(sessionIndex + 1);
    this.hints = hints;
    this.readOnly = config.shapes().readOnlyShapes();
    this.writing = config.shapes().writingShapes();
  }

  /** The next plan. */
  public TxnPlan next() {
    if (config.lists()) {
      return nextListAppend();
    }
    final MtShape shape = pickShape();
    final int[] slots = pickKeys(shape.keyCount());
    return build(shape, slots);
  }

  /** The same shape on the same keys with fresh written values (and a fresh CAS expectation). */
  public TxnPlan retry(final TxnPlan failed) {
    final List<PlannedOp> ops = new ArrayList<>(failed.ops().size());
    for (final PlannedOp op : failed.ops()) {
      if (op instanceof PlannedOp.Write w) {
        ops.add(new PlannedOp.Write(w.key(), values.next(w.key())));
      } else if (op instanceof PlannedOp.Cas c) {
        ops.add(new PlannedOp.Cas(c.key(), hints.expected(c.key()), values.next(c.key())));
      } else if (op instanceof PlannedOp.Append a) {
        ops.add(new PlannedOp.Append(a.key(), values.next(a.key())));
      } else {
        ops.add(op);
      }
    }
    return new TxnPlan(failed.shape(), ops);
  }

  /**
   * A read-only transaction over the whole key space: one statement for registers, a read of
   * each list for the list-append workload.
   */
  public TxnPlan snapshot() {
    final List<String> keys = new ArrayList<>(config.keys().size());
    for (int i = 0; i < config.keys().size(); i++) {
      keys.add(config.keys().name(i));
    }
    if (config.lists()) {
      return new TxnPlan(TxnPlan.SNAPSHOT, keys.stream().<PlannedOp>map(PlannedOp.ReadList::new).toList());
    }
    return new TxnPlan(TxnPlan.SNAPSHOT, List.of(new PlannedOp.ReadAll(keys)));
  }

  /**
   * 1 … maxOps operations, each a list read or an append (even odds) on a key from the
   * distribution; with a read-only ratio, that share of transactions only reads.
   */
  private TxnPlan nextListAppend() {
    final int count = 1 + random.nextInt(config.listAppend().maxOps());
    final Double ratio = config.readOnlyRatio();
    final boolean readOnly = ratio != null && random.nextDouble() < ratio;
    final boolean mustAppend = ratio != null && !readOnly;
    final List<PlannedOp> ops = new ArrayList<>(count);
    boolean appended = false;
    for (int i = 0; i < count; i++) {
      final String key = config.keys().name(keySampler.next(random));
      // The last op of a transaction that must write appends if none did yet.
      final boolean append = !readOnly && (random.nextBoolean() || (mustAppend && !appended && i == count - 1));
      ops.add(append ? new PlannedOp.Append(key, values.next(key)) : new PlannedOp.ReadList(key));
      appended |= append;
    }
    return new TxnPlan(readOnly || !appended ? LIST_READ : LIST_APPEND, ops);
  }

  private MtShape pickShape() {
    final List<MtShape> from;
    final Double ratio = config.readOnlyRatio();
    if (ratio == null) {
      from = config.shapes().shapes();
    } else {
      from = random.nextDouble() < ratio ? readOnly : writing;
    }
    return from.get(random.nextInt(from.size()));
  }

  private int[] pickKeys(final int count) {
    if (count == 1) {
      return new int[] {keySampler.next(random)};
    }
    if (pairSampler != null) {
      final int pair = pairSampler.next(random);
      return new int[] {2 * pair, 2 * pair + 1};
    }
    final int first = keySampler.next(random);
    int second = keySampler.next(random);
    // Heavy skew can make the same key come up again and again; bounded, then step aside.
    for (int i = 0; second == first && i < MAX_REDRAWS; i++) {
      second = keySampler.next(random);
    }
    if (second == first) {
      second = (first + 1) % config.keys().size();
    }
    return new int[] {first, second};
  }

  private TxnPlan build(final MtShape shape, final int[] slots) {
    if (shape.cas()) {
      final String key = config.keys().name(slots[0]);
      return new TxnPlan(shape.name(), List.of(new PlannedOp.Cas(key, hints.expected(key), values.next(key))));
    }
    final List<PlannedOp> ops = new ArrayList<>(shape.steps().size());
    for (final MtShape.Step st : shape.steps()) {
      final String key = config.keys().name(slots[st.slot() - 1]);
      ops.add(st.write() ? new PlannedOp.Write(key, values.next(key)) : new PlannedOp.Read(key));
    }
    return new TxnPlan(shape.name(), ops);
  }
}
