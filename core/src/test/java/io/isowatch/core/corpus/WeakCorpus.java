package io.isowatch.core.corpus;

import io.isowatch.core.history.History;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The weak-level golden corpus, {@code corpus-weak/<name>.hist} with {@code <name>.expected} (see
 * {@code corpus-weak/README.md}): a minimal history per named anomaly with the verdict of every
 * {@link WeakLevel}, derived by hand from the definitions. Read by {@code WeakCorpusTest} against
 * the oracle, and meant for the engine's tests too.
 */
public final class WeakCorpus {
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
    try (Stream<Path> files = Files.list(dir())) {
      return files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".hist"))
          .map(n -> n.substring(0, n.length() - ".hist".length()))
          .sorted()
          .map(WeakCorpus::load)
          .toList();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Loads one case; an unknown key, a missing level or a verdict other than SATISFIED/VIOLATED is an error. */
  public static Case load(final String name) {
    return parse(name, read(name + ".hist"), read(name + ".expected"));
  }

  /** Parses a case from the texts of its two files; errors as for {@link #load}. */
  static Case parse(final String name, final String hist, final String expected) {
    final Map<String, String> kv = new LinkedHashMap<>();
    for (final String raw : expected.split("\n")) {
      final String line = raw.replaceFirst("#.*", "").trim();
      if (line.isEmpty()) {
        continue;
      }
      final int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(name + ".expected: not key=value: " + line);
      }
      kv.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
    }
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
    try {
      return Files.readString(dir().resolve(file), StandardCharsets.UTF_8);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path dir() {
    try {
      return Path.of(WeakCorpus.class.getResource("/corpus-weak").toURI());
    } catch (final URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
