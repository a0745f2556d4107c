package io.isowatch.core.corpus;

import io.isowatch.core.history.History;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weak-level golden corpus, {@code corpus-weak/<name>.hist} with {@code <name>.expected} (see
 * {@code corpus-weak/README.md}): a minimal history per named anomaly with the verdict of every
 * {@link WeakLevel}, derived by hand from the definitions. Read by {@code WeakCorpusTest} against
 * the oracle, and meant for the engine's tests too.
 */
public final class WeakCorpus {
  private static final String CORPUS = "/corpus-weak";
  /** The keys an expected file may hold besides the level names. */
  private static final Set<String> OTHER_KEYS = Set.of("initialValue", "anomaly");

  private WeakCorpus() {}

  /**
   * One case.
   *
   * @param name the base name
   * @param history the history
   * @param initialValue the initial value of every key (null = absent; default 0)
   * @param holds per level, true for SATISFIED and false for VIOLATED
   * @param anomaly the literature name of what the history shows
   */
  public record Case(String name, History history, Long initialValue, Map<WeakLevel, Boolean> holds, String anomaly) {}

  /** Every case, sorted by name. */
  public static List<Case> cases() {
    return CorpusFiles.caseNames(CORPUS).stream().map(WeakCorpus::load).toList();
  }

  /** Loads one case; an unknown key, a missing level or a verdict other than SATISFIED/VIOLATED is an error. */
  public static Case load(final String name) {
    return parse(name, read(name + ".hist"), read(name + ".expected"));
  }

  /** Parses a case from the texts of its two files; errors as for {@link #load}. */
  static Case parse(final String name, final String hist, final String expected) {
    final Map<String, String> kv = CorpusFiles.keyValues(name, expected);
    final Map<WeakLevel, Boolean> holds = new EnumMap<>(WeakLevel.class);
    for (final Map.Entry<String, String> e : kv.entrySet()) {
      if (OTHER_KEYS.contains(e.getKey())) {
        continue;
      }
      final WeakLevel level = WeakLevel.valueOf(e.getKey());
      holds.put(level, switch (e.getValue()) {
        case "SATISFIED" -> true;
        case "VIOLATED" -> false;
        default -> throw new IllegalArgumentException(name + ".expected: " + e.getKey() + "=" + e.getValue());
      });
    }
    if (holds.size() != WeakLevel.values().length) {
      throw new IllegalArgumentException(name + ".expected: levels " + holds.keySet() + ", expected all of them");
    }
    final String init = kv.getOrDefault("initialValue", "0");
    return new Case(name, HistoryDsl.history(hist),
        init.equals("null") ? null : Long.valueOf(init), Collections.unmodifiableMap(holds),
        kv.getOrDefault("anomaly", ""));
  }

  private static String read(final String file) {
    return CorpusFiles.read(CORPUS, file);
  }
}
