package io.isowatch.core.history;

/** The two operations of a register history: a read or a write of one key. */
public enum OpType {
  READ("r"),
  WRITE("w");

  private final String code;

  OpType(final String code) {
    this.code = code;
  }

  /** The one-letter code used by the native JSONL and text formats ({@code r} or {@code w}). */
  public String code() {
    return code;
  }

  public static OpType fromCode(final String code) {
    return switch (code) {
      case "r", "R" -> READ;
      case "w", "W" -> WRITE;
      default -> throw new IllegalArgumentException("unknown op type '" + code + "' (expected r or w)");
    };
  }
}
