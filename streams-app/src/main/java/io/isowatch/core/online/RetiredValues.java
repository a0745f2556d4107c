package io.isowatch.core.online;

/**
 * A Bloom filter of retired versions (key id, value), of fixed size so that the summary of a
 * pruned history does not grow with it. "No" is exact (the version was never added); "maybe" is
 * wrong with a probability that grows with what was added, which only ever turns a ThinAirRead
 * into an undecided stale read (docs/segmentation.md).
 */
final class RetiredValues {
  private static final int HASHES = 4;
  /** Stands for the absent value (keys that start absent) in the hash. */
  private static final long ABSENT_SALT = 0x5DEECE66DL;

  private final long[] bits;
  private final int mask;
  private long added;

  RetiredValues(final int bitCount) {
    this.bits = new long[bitCount >>> 6];
    this.mask = bitCount - 1;
  }

  /** A filter with these bits (a power of two of words) and this count of versions added (a restore). */
  RetiredValues(final long[] words, final long added) {
    if (words.length == 0 || Integer.bitCount(words.length) != 1 || words.length > (1 << 25)) {
      throw new IllegalArgumentException("a filter needs a power of two of 64-bit words, got " + words.length);
    }
    this.bits = words.clone();
    this.mask = 64 * words.length - 1;
    this.added = added;
  }

  /** The filter's 64-bit words (a checkpoint writes them); do not modify. */
  long[] words() {
    return bits;
  }

  void add(final int key, final long value, final boolean absent) {
    long h = hash(key, value, absent);
    for (int i = 0; i < HASHES; i++) {
      final int b = (int) h & mask;
      bits[b >>> 6] |= 1L << (b & 63);
      h = Long.rotateLeft(h, 17) * 0x9E3779B97F4A7C15L + i;
    }
    added++;
  }

  boolean mightContain(final int key, final long value, final boolean absent) {
    long h = hash(key, value, absent);
    for (int i = 0; i < HASHES; i++) {
      final int b = (int) h & mask;
      if ((bits[b >>> 6] & (1L << (b & 63))) == 0) {
        return false;
      }
      h = Long.rotateLeft(h, 17) * 0x9E3779B97F4A7C15L + i;
    }
    return true;
  }

  /** Versions added (with repeats). */
  long added() {
    return added;
  }

  /** Bytes held. */
  long bytes() {
    return 8L * bits.length;
  }

  private static long hash(final int key, final long value, final boolean absent) {
    long h = (absent ? ABSENT_SALT : value) * 0xC2B2AE3D27D4EB4FL + key * 0x9E3779B97F4A7C15L + (absent ? 1 : 0);
    h ^= h >>> 31;
    h *= 0xBF58476D1CE4E5B9L;
    h ^= h >>> 29;
    return h;
  }
}
