package io.isowatch.core.gen;

import java.util.Locale;

/**
 * The database behaviour the generator simulates for its background transactions.
 *
 * <ul>
 *   <li>{@link #SER}: a serial execution in which sessions interleave at random; with timestamps
 *       the real-time order agrees with the serial order, so the history is also strictly
 *       serializable.
 *   <li>{@link #SI}: snapshot isolation: each transaction reads the snapshot taken when it began
 *       and commits under first-committer-wins (a conflicting writer is recorded as aborted). Lost
 *       updates cannot happen; write skew can.
 * </ul>
 */
public enum SimulatedLevel {
  SER,
  SI;

  public static SimulatedLevel parse(final String s) {
    return switch (s.trim().toUpperCase(Locale.ROOT)) {
      case "SER", "SERIALIZABLE" -> SER;
      case "SI", "SNAPSHOT" -> SI;
      default -> throw new IllegalArgumentException("unknown simulated level '" + s + "' (expected ser or si)");
    };
  }
}
