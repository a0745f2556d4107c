package io.isowatch.agent.workload;

/**
 * Makes every written value unique across the whole run and never 0 (0 is the initial value):
 * {@code value = (clientId << 40) | counter}, with {@code clientId = session index + 1} (1 …
 * 2^23 − 1) and a per-session {@code counter} starting at 1 (up to 2^40 − 1). The value thus tells
 * who wrote it: {@code value >>> 40} is the session index + 1, {@code value & (2^40 − 1)} its
 * write count. Aborted attempts consume values too, so a retry never reuses one.
 *
 * <p>Not thread-safe: one per session.
 */
public final class ValueEncoder {
  public static final int COUNTER_BITS = 40;
  public static final long COUNTER_MASK = (1L << COUNTER_BITS) - 1;
  public static final int MAX_CLIENT_ID = (1 << (63 - COUNTER_BITS)) - 1;

  private final long prefix;
  private long counter;

  public ValueEncoder(final int clientId) {
    if (clientId < 1 || clientId > MAX_CLIENT_ID) {
      throw new IllegalArgumentException("client id must be in [1, " + MAX_CLIENT_ID + "], got " + clientId);
    }
    this.prefix = (long) clientId << COUNTER_BITS;
  }

  /** The next unique value. */
  public long next() {
    if (counter == COUNTER_MASK) {
      throw new IllegalStateException("value counter exhausted for client " + (prefix >>> COUNTER_BITS));
    }
    return prefix | ++counter;
  }

  public static int clientId(final long value) {
    return (int) (value >>> COUNTER_BITS);
  }

  public static long counter(final long value) {
    return value & COUNTER_MASK;
  }
}
