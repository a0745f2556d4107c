package io.isowatch.core.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.oracle.BruteForceOracle;
import io.isowatch.core.oracle.MiniTransactions;
import io.isowatch.core.oracle.OracleVerdict;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus: every {@code corpus/<name>.hist} (test language) is checked against {@code
 * corpus/<name>.expected}, a small key=value file (see {@code corpus/README.md}). Small cases are
 * also checked against the brute-force oracle, so that an expected file cannot be wrong either.
 * Every case runs on the batch {@link Checker} and on the incremental engine ({@link
 * OnlineChecker#check}), which must also agree with each other.
 */
class GoldenCorpusTest {
  /** The oracle enumerates; beyond this many transactions it is not asked. */
  private static final int ORACLE_LIMIT = 8;

  private static final String CORPUS = "/corpus";
  private static final Set<String> KNOWN_KEYS =
      Set.of("SSER", "SER", "SI", "anomalies", "findings", "initialValue", "rtSkewUs", "maxAnomalies",
          "solverBudgetMs");

  private static final List<String> TABLE_ONE = List.of(
      "ThinAirRead", "AbortedRead", "FutureRead", "NotMyLastWrite", "NotMyOwnWrite", "IntermediateRead",
      "NonRepeatableReads", "SessionGuaranteeViolation", "NonMonotonicRead", "FracturedRead",
      "CausalityViolation", "LongFork", "LostUpdate", "WriteSkew");

  static Stream<String> cases() {
    return CorpusFiles.caseNames(CORPUS).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldMatchTheExpectedFileWhenCheckingACorpusHistory(final String name) {
    // Given
    final Map<String, String> expected = expected(name);
    final History history = HistoryDsl.history(read(name + ".hist"));

    // When
    final CheckResult r = new Checker(options(expected)).check(history);

    // Then
    assertMatches(name, expected, r);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldMatchTheExpectedFileAndTheBatchEngineWhenTheOnlineEngineChecksACorpusHistory(final String name) {
    // Given
    final Map<String, String> expected = expected(name);
    final History history = HistoryDsl.history(read(name + ".hist"));
    final CheckResult batch = new Checker(options(expected)).check(history);

    // When
    final CheckResult online = OnlineChecker.check(history, options(expected));

    // Then
    assertMatches(name, expected, online);
    assertEquals(batch.verdicts(), online.verdicts(), () -> "verdicts of " + name);
    assertEquals(names(batch), names(online), () -> "anomalies of " + name);
  }

  private static void assertMatches(final String name, final Map<String, String> expected, final CheckResult r) {
    for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
      assertEquals(Verdict.valueOf(expected.get(level.name())), r.verdicts().get(level),
          () -> level + " of " + name + "; anomalies " + names(r));
    }
    assertEquals(expected.get("anomalies"), names(r), () -> "anomalies of " + name);
    if (expected.containsKey("findings")) {
      assertEquals(expected.get("findings"), findingKinds(r), () -> "findings of " + name + ": " + r.findings());
    }
  }

  /** The cases small enough for the oracle; the large ones are valid or broken by construction. */
  static Stream<String> smallCases() {
    return cases().filter(n -> HistoryDsl.history(read(n + ".hist")).size() <= ORACLE_LIMIT);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("smallCases")
  void shouldAgreeWithTheOracleWhenACorpusHistoryIsSmall(final String name) {
    // Given
    final Map<String, String> expected = expected(name);
    final History history = HistoryDsl.history(read(name + ".hist"));
    final CheckOptions options = options(expected);

    // When
    final OracleVerdict oracle = BruteForceOracle.judge(history, options);

    // Then: an expected verdict never contradicts the definitions, and on mini-transactions it is exact
    final boolean exact = MiniTransactions.isProper(history, options.initialValue());
    for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
      final Verdict v = Verdict.valueOf(expected.get(level.name()));
      final Boolean o = oracle.holds(level);
      if (v == Verdict.VIOLATED) {
        assertTrue(oracle.certainlyViolated(level), () -> name + ": " + level + " expected VIOLATED, oracle " + o);
      } else if (v == Verdict.SATISFIED) {
        assertEquals(Boolean.TRUE, o, () -> name + ": " + level + " expected SATISFIED");
      } else {
        assertTrue(!exact || o == null, () -> name + ": " + level + " expected UNKNOWN on a mini-transaction history");
      }
    }
  }

  @Test
  void shouldCoverEveryTableOneAnomalyWhenTheCorpusIsComplete() {
    // Given
    final List<String> names = cases().toList();

    // When
    final Set<String> covered = new TreeSet<>();
    for (final String name : names) {
      covered.addAll(List.of(expected(name).get("anomalies").split(",")));
    }

    // Then
    assertTrue(names.size() >= 25, () -> "only " + names.size() + " corpus cases");
    assertTrue(smallCases().count() >= 20, "most cases must be small enough to be checked by the oracle");
    assertTrue(covered.containsAll(TABLE_ONE), () -> "not covered: " + TABLE_ONE.stream().filter(n -> !covered.contains(n)).toList());
    assertTrue(names.stream().anyMatch(n -> HistoryDsl.history(read(n + ".hist")).size() >= 40),
        "the corpus needs realistic histories of 20-60 transactions");
  }

  private static String names(final CheckResult r) {
    return String.join(",", r.anomalies().stream().map(Anomaly::displayName).sorted().toList());
  }

  private static String findingKinds(final CheckResult r) {
    return String.join(",", new TreeSet<>(r.findings().stream().map(Finding::kind).map(Enum::name).toList()));
  }

  private static CheckOptions options(final Map<String, String> expected) {
    CheckOptions o = CheckOptions.defaults();
    if (expected.containsKey("initialValue")) {
      final String v = expected.get("initialValue");
      o = o.withInitialValue(v.equals("null") ? null : Long.parseLong(v));
    }
    if (expected.containsKey("rtSkewUs")) {
      o = o.withRtSkewMicros(Long.parseLong(expected.get("rtSkewUs")));
    }
    if (expected.containsKey("solverBudgetMs")) {
      o = o.withSolverBudget(java.time.Duration.ofMillis(Long.parseLong(expected.get("solverBudgetMs"))));
    }
    if (expected.containsKey("maxAnomalies")) {
      o = o.withMaxAnomalies(Integer.parseInt(expected.get("maxAnomalies")));
    }
    return o;
  }

  /** Parses {@code <name>.expected}; unknown keys and missing verdicts fail the test. */
  private static Map<String, String> expected(final String name) {
    final Map<String, String> kv = CorpusFiles.keyValues(name, read(name + ".expected"));
    for (final String key : kv.keySet()) {
      assertTrue(KNOWN_KEYS.contains(key), () -> name + ".expected: unknown key " + key);
    }
    for (final String required : List.of("SSER", "SER", "SI", "anomalies")) {
      assertTrue(kv.containsKey(required), () -> name + ".expected: missing " + required);
    }
    return kv;
  }

  private static String read(final String file) {
    return CorpusFiles.read(CORPUS, file);
  }
}
