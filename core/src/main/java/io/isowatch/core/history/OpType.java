package io.isowatch.core.history;

/**
 * The operations of a history: a read or a write of one key (register histories), or an append
 * of one element to a key's list (list-append histories, whose reads return lists).
 */
public enum OpType {
  READ("r"),
  WRITE("w"),
  APPEND("a");

  private final String code;

  OpType(final String code) {
    this.code = code;
  }

  /** The one-letter code used by the native JSONL and text formats ({@code r}, {@code w} or {@code a}). */
  public String code() {
    return code;
  }

  public static OpType fromCode(final String code) {
    return switch (code) {
      case "r", "R" -> READ;
      case "w", "W" -> WRITE;
      case "a", "A" -> APPEND;
      default -> throw new IllegalArgumentException("unknown op type '" + code + "' (expected r, w or a)");
    };
  }
}
