package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import java.util.Locale;

/**
 * Reads the level a transaction declared (the optional {@code "level"} of the JSONL format, the
 * {@code level} of TransactionEvent) as one of the levels {@link Level#MIXED} mixes: RC, RA, CC,
 * PC, SI, SER, in IsoWatch's spellings ({@link Level#parse}) or the SQL names that mean them
 * unambiguously ({@code READ COMMITTED}, {@code SERIALIZABLE}, {@code SNAPSHOT}); case, spaces,
 * dashes and underscores do not matter. {@code REPEATABLE READ} is refused: it promises SI on
 * PostgreSQL and less than SI on MySQL and MariaDB, so the history must say which.
 */
public final class DeclaredLevels {
  private DeclaredLevels() {}

  /** The level {@code t} runs at: its declared one, else {@code defaultLevel} (may be null). */
  public static Level of(final Transaction t, final Level defaultLevel) {
    return t.level() == null ? defaultLevel : parse(t.level());
  }

  /**
   * The mixable level {@code declared} names.
   *
   * @throws IllegalArgumentException saying why, when it names none
   */
  public static Level parse(final String declared) {
    final String s = declared.trim().toUpperCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
    if (s.equals("REPEATABLE-READ") || s.equals("RR")) {
      throw new IllegalArgumentException("'" + declared + "' is ambiguous: PostgreSQL's REPEATABLE READ is snapshot "
          + "isolation (declare SI), MySQL's and MariaDB's promise less (declare the level they keep, e.g. RC)");
    }
    final Level level;
    try {
      level = Level.parse(s);
    } catch (final IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown level '" + declared + "' (expected one of " + names() + ")");
    }
    if (!Level.MIXABLE.contains(level)) {
      throw new IllegalArgumentException("'" + declared + "' (" + level + ") cannot be mixed: only levels defined by "
          + "axioms on one commit order can (" + names() + ")");
    }
    return level;
  }

  /** The accepted names, for messages and help. */
  public static String names() {
    return "RC (read-committed), RA (read-atomic), CC (causal), PC (prefix), SI (snapshot), SER (serializable)";
  }
}
