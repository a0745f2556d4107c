package io.isowatch.core.online;

import java.util.ArrayList;
import java.util.List;

/**
 * A scalable Bloom filter of retired versions (key id, value): a series of Bloom filters
 * (stages) that grows with what is added, so that its false-positive probability stays under
 * {@link #BOUND} however many versions retire (docs/segmentation.md, "Retired versions").
 *
 * <p>"No" is exact: a version added is in some stage, and no stage ever forgets a bit. "Maybe" is
 * wrong with probability at most the sum over the stages of each stage's own probability (the
 * union bound, which needs no independence between stages). Stage {@code i} is sized for {@code
 * BOUND (1 - RATIO) RATIO^i}, so the sum stays under {@link #BOUND}; it gets twice the bits of the
 * previous stage (up to {@link #MAX_STAGE_BITS}) and is opened when one more version could lift
 * the previous one over its target, judged from the bits it has set (so the bound holds for the
 * bits as they are, not only on average). Memory thus follows the retired versions, about 20 bits
 * each, with at most a factor two of headroom, up to {@code maxBits}; beyond that cap the last
 * stage keeps filling, and {@link #falsePositiveProbability()} (computed from the bits actually
 * set) says how far past the bound it got.
 *
 * <p>A filter restored from a version-1 checkpoint keeps that checkpoint's fixed-size filter as its
 * first stage (4 hashes, whatever it was filled to): its own probability counts in full, and new
 * stages follow it.
 */
final class RetiredValues {
  /** The bound on a filter's false-positive probability while under its cap. */
  static final double BOUND = 5e-4;
  /** Each stage's target is this times the previous one's: the series sums to {@link #BOUND}. */
  static final double RATIO = 0.8;
  /** A stage's bits are an int mask: at most 2^31 bits (256 MiB) per stage. */
  static final long MAX_STAGE_BITS = 1L << 31;
  /** Hashes of the fixed-size filters of checkpoint format 1. */
  static final int LEGACY_HASHES = 4;

  private final int firstBits;
  private final long maxBits;
  private final List<Stage> stages = new ArrayList<>(4);
  private long added;
  private long bits;

  /**
   * An empty filter whose first stage has {@code firstBits} bits (a power of two, at least 64) and
   * whose stages together never take more than {@code maxBits} bits (the first one always exists).
   */
  RetiredValues(final int firstBits, final long maxBits) {
    if (firstBits < 64 || Integer.bitCount(firstBits) != 1) {
      throw new IllegalArgumentException("a filter's first stage needs a power of two >= 64 bits, got " + firstBits);
    }
    this.firstBits = firstBits;
    this.maxBits = Math.max(maxBits, firstBits);
  }

  /** A restored filter: its parameters and stages (oldest first), as {@link #stages()} gave them. */
  RetiredValues(final int firstBits, final long maxBits, final List<Stage> restored) {
    this(firstBits, maxBits);
    for (final Stage st : restored) {
      stages.add(st);
      added += st.added;
      bits += st.bitCount();
    }
  }

  int firstBits() {
    return firstBits;
  }

  long maxBits() {
    return maxBits;
  }

  /** The stages, oldest first (a checkpoint writes them); do not modify. */
  List<Stage> stages() {
    return stages;
  }

  void add(final int key, final long value, final boolean absent) {
    final long h = hash(key, value, absent);
    Stage last = stages.isEmpty() ? null : stages.get(stages.size() - 1);
    if (last == null || last.full()) {
      final Stage next = open(last);
      if (next != null) {
        stages.add(next);
        bits += next.bitCount();
        last = next;
      }
    }
    last.add(h);
    added++;
  }

  /** The next stage after {@code last}, or null if it would not fit under {@code maxBits}. */
  private Stage open(final Stage last) {
    if (last == null) {
      return Stage.sized(firstBits, 0);
    }
    final int index = last.index + 1;
    final long size = Math.min(MAX_STAGE_BITS, 2L * last.bitCount());
    if (bits + size > maxBits) {
      return null;
    }
    return Stage.sized(size, index);
  }

  /** The false-positive target of stage {@code i}: {@code BOUND (1 - RATIO) RATIO^i}. */
  static double target(final int i) {
    return BOUND * (1 - RATIO) * Math.pow(RATIO, i);
  }

  boolean mightContain(final int key, final long value, final boolean absent) {
    final long h = hash(key, value, absent);
    for (int i = stages.size() - 1; i >= 0; i--) {
      if (stages.get(i).mightContain(h)) {
        return true;
      }
    }
    return false;
  }

  /**
   * An upper bound of the probability that {@link #mightContain} says "maybe" for a version never
   * added: the sum over the stages of (share of bits set)^hashes. This is each stage's expected
   * false-positive rate given the bits it actually has set, so it also covers a stage filled past
   * its size (a capped or restored one).
   */
  double falsePositiveProbability() {
    double p = 0;
    for (final Stage st : stages) {
      p += st.falsePositiveProbability();
    }
    return Math.min(1, p);
  }

  /** Versions added (with repeats). */
  long added() {
    return added;
  }

  /** Bytes held. */
  long bytes() {
    return bits / 8;
  }

  static long hash(final int key, final long value, final boolean absent) {
    long h = (absent ? 0x5DEECE66DL : value) * 0xC2B2AE3D27D4EB4FL + key * 0x9E3779B97F4A7C15L + (absent ? 1 : 0);
    h ^= h >>> 31;
    h *= 0xBF58476D1CE4E5B9L;
    h ^= h >>> 29;
    return h;
  }

  /**
   * One Bloom filter: {@code hashes} bit positions per version, derived from the version's hash as
   * the format-1 filter derived its 4, so that a format-1 filter is a stage as it stands.
   */
  static final class Stage {
    final int index;
    final int hashes;
    /** A format-1 filter taken over as it stands: never added to again. */
    final boolean legacy;
    /** Bits set beyond which one more version could lift the stage over its target. */
    private final long maxSet;
    private final long[] words;
    private final int mask;
    private long added;
    private long set;

    Stage(final int index, final int hashes, final boolean legacy, final long[] words, final long added) {
      if (words.length == 0 || Integer.bitCount(words.length) != 1 || words.length > (1 << 25)) {
        throw new IllegalArgumentException("a filter stage needs a power of two of 64-bit words, got " + words.length);
      }
      if (hashes < 1 || hashes > 64) {
        throw new IllegalArgumentException("a filter stage needs 1 to 64 hashes, got " + hashes);
      }
      this.index = index;
      this.hashes = hashes;
      this.legacy = legacy;
      this.words = words;
      this.mask = (int) (64L * words.length - 1);
      // Full when (set + hashes) / bits could exceed target^(1/hashes): after any add, the stage's
      // (set / bits)^hashes is still at most its target, whatever the hashes hit.
      this.maxSet = legacy ? -1 : (long) Math.floor(bitCount() * Math.pow(target(index), 1.0 / hashes)) - hashes;
      this.added = added;
      for (final long w : words) {
        set += Long.bitCount(w);
      }
    }

    /**
     * An empty stage {@code index} of {@code bitCount} bits, with the optimal hashes for its target
     * p, log2(1/p); it then holds about bits (ln 2)^2 / ln(1/p) versions, about 19 bits each for
     * the first stage, a third of a bit more for each later one.
     */
    static Stage sized(final long bitCount, final int index) {
      final int hashes = (int) Math.ceil(Math.log(1 / target(index)) / Math.log(2));
      return new Stage(index, hashes, false, new long[(int) (bitCount >>> 6)], 0);
    }

    long[] words() {
      return words;
    }

    long added() {
      return added;
    }

    long bitCount() {
      return 64L * words.length;
    }

    boolean full() {
      return set > maxSet;
    }

    void add(long h) {
      for (int i = 0; i < hashes; i++) {
        final int b = (int) h & mask;
        final long bit = 1L << (b & 63);
        if ((words[b >>> 6] & bit) == 0) {
          words[b >>> 6] |= bit;
          set++;
        }
        h = Long.rotateLeft(h, 17) * 0x9E3779B97F4A7C15L + i;
      }
      added++;
    }

    boolean mightContain(long h) {
      for (int i = 0; i < hashes; i++) {
        final int b = (int) h & mask;
        if ((words[b >>> 6] & (1L << (b & 63))) == 0) {
          return false;
        }
        h = Long.rotateLeft(h, 17) * 0x9E3779B97F4A7C15L + i;
      }
      return true;
    }

    double falsePositiveProbability() {
      return Math.pow((double) set / bitCount(), hashes);
    }
  }
}
