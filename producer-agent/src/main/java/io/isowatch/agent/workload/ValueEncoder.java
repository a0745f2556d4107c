package io.isowatch.agent.workload;

import java.util.HashMap;
import java.util.Map;

/**
 * Makes every written value unique per key and never 0 (0 is the initial value): {@code value =
 * (clientId << 40) | counter}, with {@code clientId = session index + 1} (1 … 2^23 − 1) and a
 * {@code counter} per key of this session, starting at 1 (up to 2^40 − 1): the n-th write of this
 * session to a key gets counter n. The value thus tells who wrote it: {@code value >>> 40} is the
 * session index + 1, {@code value & (2^40 − 1)} that session's write count on the key. Aborted
 * attempts consume values too, so a retry never reuses one.
 *
 * <p>Values are unique per key (the contract the checker needs), not across keys: two keys get the
 * same values. Counting per key, rather than per session, makes one session's values of a key
 * consecutive, so that the checker's record of retired versions holds them as one run
 * (docs/segmentation.md, "Retired versions"); before this, a per-session counter spread them.
 *
 * <p>Not thread-safe: one per session.
 */
public final class ValueEncoder {
  public static final int COUNTER_BITS = 40;
  public static final long COUNTER_MASK = (1L << COUNTER_BITS) - 1;
  public static final int MAX_CLIENT_ID = (1 << (63 - COUNTER_BITS)) - 1;

  private final long prefix;
  /** Per key: the counter of its last value. */
  private final Map<String, long[]> counters = new HashMap<>();

  public ValueEncoder(final int clientId) {
    if (clientId < 1 || clientId > MAX_CLIENT_ID) {
      throw new IllegalArgumentException("client id must be in [1, " + MAX_CLIENT_ID + "], got " + clientId);
    }
    this.prefix = (long) clientId << COUNTER_BITS;
  }

  /** The next value of {@code key}: unique among the values of that key. */
  public long next(final String key) {
    final long[] counter = counters.computeIfAbsent(key, k -> new long[1]);
    if (counter[0] == COUNTER_MASK) {
      throw new IllegalStateException("value counter of key " + key + " exhausted for client "
          + (prefix >>> COUNTER_BITS));
    }
    return prefix | ++counter[0];
  }

  public static int clientId(final long value) {
    return (int) (value >>> COUNTER_BITS);
  }

  public static long counter(final long value) {
    return value & COUNTER_MASK;
  }
}
