package io.isowatch.core.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.oracle.ListAppendOracle;
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
 * The list-append golden corpus ({@code core/src/test/resources/corpus/list-append}, README
 * there): histories transcribed from Elle's list-append tests, and a few observed on real databases,
 * each with its source, what Elle reports, IsoWatch's expected verdicts and anomalies, and where they differ, why. Every case is
 * also judged by {@link ListAppendOracle}, so that an expected verdict cannot contradict the
 * definitions.
 */
class ListAppendCorpusTest {
  private static final String CORPUS = "/corpus/list-append";
  private static final Set<String> KNOWN_KEYS =
      Set.of("source", "elle", "differs", "SSER", "SER", "SI", "anomalies", "findings", "PL2", "RR", "RC", "RA", "CC",
          "PC");
  /** The Adya levels decided on list-append histories besides the classic ones (docs/list-append.md, "Levels"). */
  private static final List<Level> ADYA = List.of(Level.PL2, Level.RR);
  /** The axiomatic weak levels decided on list-append histories (docs/list-append.md, "Levels"). */
  private static final List<Level> AXIOMATIC = List.of(Level.RC, Level.RA, Level.CC, Level.PC);
  /** The chain SER ⇒ SI ⇒ PC ⇒ CC ⇒ RA ⇒ RC, strongest first. */
  private static final List<Level> CHAIN = List.of(Level.SER, Level.SI, Level.PC, Level.CC, Level.RA, Level.RC);

  static Stream<String> cases() {
    return CorpusFiles.caseNames(CORPUS).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldMatchTheExpectedFileWhenCheckingAListAppendCorpusHistory(final String name) {
    // Given
    final Map<String, String> expected = expected(name);
    final History history = HistoryDsl.history(read(name + ".hist"));
    // When
    final CheckResult r = WholeHistoryCheck.check(history, CheckOptions.defaults());
    // Then
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(Verdict.valueOf(expected.get(level.name())), r.verdicts().get(level),
          () -> level + " of " + name + "; anomalies " + names(r) + "; reasons " + r.reasons());
    }
    assertEquals(expected.get("anomalies"), names(r), () -> "anomalies of " + name);
    if (expected.containsKey("findings")) {
      assertEquals(expected.get("findings"), String.join(",",
          new TreeSet<>(r.findings().stream().map(Finding::kind).map(Enum::name).toList())), () -> "findings of " + name);
    }
    for (final Anomaly a : r.anomalies()) {
      assertTrue(a.explanation().startsWith("Let:\n") && a.explanation().contains("Then:\n"), a.explanation());
    }
    // And: PL2 and RR, checked on request
    final CheckResult adya = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(Set.copyOf(ADYA)));
    for (final Level level : ADYA) {
      assertEquals(Verdict.valueOf(expected.get(level.name())), adya.verdicts().get(level),
          () -> level + " of " + name + "; anomalies " + names(adya) + "; reasons " + adya.reasons());
    }
    for (final Anomaly a : adya.anomalies()) {
      assertTrue(a.explanation().startsWith("Let:\n") && a.explanation().contains("Then:\n"), a.explanation());
    }
    // And: RC, RA, CC and PC, checked on request, with a counterexample for each one violated
    final CheckResult weak = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(Set.copyOf(AXIOMATIC)));
    for (final Level level : AXIOMATIC) {
      assertEquals(Verdict.valueOf(expected.get(level.name())), weak.verdicts().get(level),
          () -> level + " of " + name + "; anomalies " + names(weak) + "; reasons " + weak.reasons());
      if (weak.verdicts().get(level) == Verdict.VIOLATED) {
        assertTrue(weak.anomalies().stream().anyMatch(a -> a.violates().contains(level)),
            () -> level + " of " + name + " has no anomaly: " + names(weak));
      }
    }
    for (final Anomaly a : weak.anomalies()) {
      assertTrue(a.explanation().startsWith("Let:\n") && a.explanation().contains("Then:\n"), a.explanation());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldKeepTheHierarchyOfTheAxiomaticLevels(final String name) {
    // Given
    final History history = HistoryDsl.history(read(name + ".hist"));
    // When
    final CheckResult r = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(Set.copyOf(CHAIN)));
    // Then: no level holds while a weaker one is violated (the corpus decides them all)
    for (int i = 0; i < CHAIN.size(); i++) {
      for (int j = i + 1; j < CHAIN.size(); j++) {
        final Level stronger = CHAIN.get(i);
        final Level weaker = CHAIN.get(j);
        assertFalse(r.verdicts().get(stronger) == Verdict.SATISFIED && r.verdicts().get(weaker) != Verdict.SATISFIED,
            () -> name + ": " + stronger + " SATISFIED but " + weaker + " " + r.verdicts().get(weaker));
        assertFalse(r.verdicts().get(weaker) == Verdict.VIOLATED && r.verdicts().get(stronger) == Verdict.SATISFIED,
            () -> name + ": " + weaker + " VIOLATED but " + stronger + " SATISFIED");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldAgreeWithTheListAppendOracle(final String name) {
    // Given
    final Map<String, String> expected = expected(name);
    final History history = HistoryDsl.history(read(name + ".hist"));
    // When / Then: a decided expected verdict is what the oracle finds by running every schedule
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI, Level.PL2, Level.RR, Level.RC, Level.RA, Level.CC,
        Level.PC)) {
      final Verdict v = Verdict.valueOf(expected.get(level.name()));
      if (v == Verdict.UNKNOWN) {
        continue;
      }
      final boolean holds = ListAppendOracle.holds(history, level, 0);
      assertEquals(v == Verdict.SATISFIED, holds, () -> name + ": " + level + " expected " + v + ", oracle " + holds);
    }
  }

  @Test
  void shouldCoverElleListAppendAnomalies() {
    // Given
    final List<String> names = cases().toList();
    // When
    final Set<String> seen = new TreeSet<>();
    for (final String n : names) {
      seen.addAll(List.of(expected(n).get("anomalies").split(",")));
      assertTrue(expected(n).get("source").startsWith("https://"), n + ": needs a source");
      assertFalse(HistoryDsl.history(read(n + ".hist")).transactions().stream()
          .anyMatch(t -> t.status() == TxnStatus.UNKNOWN && t.ops().isEmpty()), n);
    }
    // Then
    assertTrue(names.size() >= 20, () -> "only " + names.size() + " cases");
    assertTrue(seen.containsAll(List.of("G0", "AbortedRead", "IntermediateRead", "G1c", "WriteSkew",
        "DuplicateElements", "IncompatibleOrder", "LostUpdate", "G-single-realtime", "G-single")), seen::toString);
    // (Elle's G-single-item cases were NonMonotonicRead before session 12; they are named by the lists' edges now.)
  }

  private static String names(final CheckResult r) {
    return String.join(",", r.anomalies().stream().map(Anomaly::displayName).sorted().toList());
  }

  private static Map<String, String> expected(final String name) {
    final Map<String, String> kv = CorpusFiles.keyValues(name, read(name + ".expected"));
    for (final String key : kv.keySet()) {
      assertTrue(KNOWN_KEYS.contains(key), () -> name + ".expected: unknown key " + key);
    }
    for (final String required : List.of("source", "elle", "SSER", "SER", "SI", "PL2", "RR", "RC", "RA", "CC", "PC",
        "anomalies")) {
      assertTrue(kv.containsKey(required), () -> name + ".expected: missing " + required);
    }
    return kv;
  }

  private static String read(final String file) {
    return CorpusFiles.read(CORPUS, file);
  }
}
