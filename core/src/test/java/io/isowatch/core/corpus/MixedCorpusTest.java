package io.isowatch.core.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.DeclaredLevels;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The mixed-level corpus ({@code corpus-mixed}, README there): each case's expected MIXED verdict
 * is the oracle's ({@link WeakLevelOracle#decideMixed}) and the engine's, with SER for contrast,
 * and the counterexample's name and broken promise where the file gives them.
 */
class MixedCorpusTest {
  private static final Set<String> KEYS = Set.of("levels", "MIXED", "SER", "anomaly", "broken");

  static Stream<String> cases() throws IOException, URISyntaxException {
    try (Stream<Path> files = Files.list(dir())) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".hist"))
          .map(n -> n.substring(0, n.length() - ".hist".length())).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldGiveTheExpectedVerdictsWhenTheOracleAndTheEngineJudgeAMixedCase(final String name) throws Exception {
    // Given
    final Map<String, String> expected = expected(name);
    final Map<String, String> declared = new HashMap<>();
    for (final String pair : expected.get("levels").split(",")) {
      final String[] p = pair.split(":");
      declared.put(p[0].trim(), p[1].trim());
    }
    final List<Transaction> txns = new ArrayList<>();
    for (final Transaction t : HistoryDsl.history(Files.readString(dir().resolve(name + ".hist"))).transactions()) {
      txns.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
          Objects.requireNonNull(declared.get(t.id()), "no level for " + t.id()), t.line()));
    }
    final History history = new History(txns);

    // When
    final boolean oracle = WeakLevelOracle.decideMixed(history, 0L,
        t -> WeakLevel.valueOf(DeclaredLevels.parse(t.level()).name()));
    final CheckResult r = WholeHistoryCheck.check(history,
        CheckOptions.defaults().withLevels(EnumSet.of(Level.MIXED, Level.SER)));

    // Then
    assertEquals(expected.get("MIXED"), oracle ? "SATISFIED" : "VIOLATED", name + ": the oracle");
    assertEquals(expected.get("MIXED"), r.verdicts().get(Level.MIXED).name(), name + ": the engine");
    assertEquals(expected.get("SER"), r.verdicts().get(Level.SER).name(), name + ": SER");
    final Anomaly witness = r.anomalies().stream().filter(a -> a.violates().contains(Level.MIXED)).findFirst()
        .orElse(null);
    assertEquals(!oracle, witness != null, name + ": a counterexample exactly when MIXED is violated");
    if (expected.containsKey("anomaly")) {
      assertEquals(expected.get("anomaly"), witness.name(), name + ": " + witness.explanation());
    }
    if (expected.containsKey("broken")) {
      assertTrue(witness.explanation().contains(expected.get("broken") + " (declared"), witness.explanation());
    }
  }

  private static Map<String, String> expected(final String name) throws IOException, URISyntaxException {
    final Map<String, String> out = new HashMap<>();
    for (final String line : Files.readAllLines(dir().resolve(name + ".expected"))) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      final int eq = line.indexOf('=');
      final String key = line.substring(0, eq).trim();
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException(name + ": unknown key " + key);
      }
      out.put(key, line.substring(eq + 1).trim());
    }
    for (final String required : List.of("levels", "MIXED", "SER")) {
      if (!out.containsKey(required)) {
        throw new IllegalArgumentException(name + ": missing " + required);
      }
    }
    return out;
  }

  private static Path dir() throws URISyntaxException {
    return Path.of(Objects.requireNonNull(MixedCorpusTest.class.getResource("/corpus-mixed/README.md")).toURI())
        .getParent();
  }
}
