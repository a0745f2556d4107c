package io.isowatch.agent.workload;

/**
 * The keys a workload touches: {@code k0 … k(K-1)}. Every key exists before the run starts and
 * holds the initial value 0 (the checker's default initial value), so a read never finds a key
 * absent.
 *
 * @param size the number of keys, at least 1
 */
public record KeySpace(int size) {
  public KeySpace {
    if (size < 1) {
      throw new IllegalArgumentException("--keys must be at least 1, got " + size);
    }
  }

  /** The name of key {@code index}. */
  public String name(final int index) {
    return "k" + index;
  }
}
