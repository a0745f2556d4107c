package io.isowatch.agent.workload;

/**
 * The list-append workload (Elle's, docs/list-append.md): every key holds a list, and each
 * transaction is 1 … {@code maxOps} operations, each a read of a whole list or an append of a
 * fresh element (unique per key, {@link ValueEncoder}) to one, on keys drawn from the key
 * distribution; a key may come up twice. Appends are blind (nothing is read first), yet the
 * history stays decidable: the lists read give every key's version order.
 *
 * @param maxOps the most operations a transaction has, at least 1
 */
public record ListAppend(int maxOps) {
  public static final int DEFAULT_MAX_OPS = 4;

  public ListAppend {
    if (maxOps < 1) {
      throw new IllegalArgumentException("--ops-per-txn must be at least 1, got " + maxOps);
    }
  }

  public static ListAppend defaults() {
    return new ListAppend(DEFAULT_MAX_OPS);
  }
}
