package io.isowatch.core.history;

import java.util.List;
import java.util.Objects;

/**
 * One operation of a transaction, in program order.
 *
 * <p>Register histories have reads and writes of single values. List-append histories (Elle's
 * list-append workload) have appends of one element and reads that return a whole list: then
 * {@code elements} holds the list read and {@code value} its last element (null for the empty
 * list), which names the version read (docs/list-append.md).
 *
 * @param type read, write or append
 * @param key the register's (or list's) name
 * @param value the value read or written, or the element appended; {@code null} only for a read
 *     that found the key absent (or an empty list)
 * @param elements for a list read, the list it returned, in order, held as a {@link LongList}; null for every
 *     other op
 */
public record Op(OpType type, String key, Long value, List<Long> elements) {
  public Op {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    if (type != OpType.READ && value == null) {
      throw new IllegalArgumentException("a " + (type == OpType.WRITE ? "write" : "append")
          + " needs a value (key " + key + ")");
    }
    if (elements != null) {
      if (type != OpType.READ) {
        throw new IllegalArgumentException("only a read returns a list (key " + key + ")");
      }
      elements = LongList.copyOf(elements); // one long[] per list, not an object per element
      final Long last = elements.isEmpty() ? null : elements.get(elements.size() - 1);
      if (!Objects.equals(last, value)) {
        throw new IllegalArgumentException("a list read's value is its last element (key " + key + ")");
      }
    }
  }

  /** A register op: a read or a write of one value. */
  public Op(final OpType type, final String key, final Long value) {
    this(type, key, value, null);
  }

  public static Op read(final String key, final Long value) {
    return new Op(OpType.READ, key, value);
  }

  public static Op write(final String key, final long value) {
    return new Op(OpType.WRITE, key, value);
  }

  /** {@code append(key, element)} of a list-append history. */
  public static Op append(final String key, final long element) {
    return new Op(OpType.APPEND, key, element);
  }

  /** {@code r(key) -> elements} of a list-append history. */
  public static Op readList(final String key, final List<Long> elements) {
    return new Op(OpType.READ, key, elements.isEmpty() ? null : elements.get(elements.size() - 1), elements);
  }

  public boolean isRead() {
    return type == OpType.READ;
  }

  public boolean isWrite() {
    return type == OpType.WRITE;
  }

  public boolean isAppend() {
    return type == OpType.APPEND;
  }

  /** True for a read that returned a list (list-append histories). */
  public boolean isListRead() {
    return elements != null;
  }

  /** Compact form used in explanations, e.g. {@code r(x,5)}, {@code w(y,7)}, {@code a(z,3)} or {@code r(z,[1,3])}. */
  @Override
  public String toString() {
    if (elements != null) {
      return type.code() + "(" + key + "," + elements.toString().replace(" ", "") + ")";
    }
    return type.code() + "(" + key + "," + (value == null ? "null" : value) + ")";
  }
}
