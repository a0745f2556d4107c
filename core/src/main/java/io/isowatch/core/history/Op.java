package io.isowatch.core.history;

import java.util.Objects;

/**
 * One operation of a transaction, in program order.
 *
 * @param type read or write
 * @param key the register's name
 * @param value the value read or written; {@code null} only for a read that found the key absent
 */
public record Op(OpType type, String key, Long value) {
  public Op {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    if (type == OpType.WRITE && value == null) {
      throw new IllegalArgumentException("a write needs a value (key " + key + ")");
    }
  }

  public static Op read(final String key, final Long value) {
    return new Op(OpType.READ, key, value);
  }

  public static Op write(final String key, final long value) {
    return new Op(OpType.WRITE, key, value);
  }

  public boolean isRead() {
    return type == OpType.READ;
  }

  public boolean isWrite() {
    return type == OpType.WRITE;
  }

  /** Compact form used in explanations, e.g. {@code r(x,5)} or {@code w(y,7)}. */
  @Override
  public String toString() {
    return type.code() + "(" + key + "," + (value == null ? "null" : value) + ")";
  }
}
