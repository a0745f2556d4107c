package io.isowatch.agent.target;

import java.util.Locale;

/** The isolation level the agent asks a target to run its transactions at. */
public enum IsolationLevel {
  READ_COMMITTED("read-committed"),
  REPEATABLE_READ("repeatable-read"),
  SERIALIZABLE("serializable"),
  /** H2 only (its {@code SNAPSHOT} level). */
  SNAPSHOT("snapshot");

  private final String label;

  IsolationLevel(final String label) {
    this.label = label;
  }

  /** The CLI spelling, also recorded as each transaction's {@code level}. */
  public String label() {
    return label;
  }

  public static IsolationLevel parse(final String text) {
    final String s = text.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
    for (final IsolationLevel l : values()) {
      if (l.label.equals(s)) {
        return l;
      }
    }
    return switch (s) {
      case "rc" -> READ_COMMITTED;
      case "rr" -> REPEATABLE_READ;
      case "ser" -> SERIALIZABLE;
      case "si" -> SNAPSHOT;
      default -> throw new IllegalArgumentException("unknown isolation level '" + text
          + "' (expected read-committed, repeatable-read, serializable or snapshot)");
    };
  }

  @Override
  public String toString() {
    return label;
  }
}
