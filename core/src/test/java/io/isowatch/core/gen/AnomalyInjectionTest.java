package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AnomalyInjectionTest {
  /** The exact pattern of each kind's first instance (prefix inj1-), in the history DSL. */
  private static final Map<InjectedKind, String> PATTERNS = Map.of(
      InjectedKind.LOST_UPDATE, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1)
          inj1-b-0 inj1-b r(inj1-x,0) w(inj1-x,2)""",
      InjectedKind.WRITE_SKEW, """
          inj1-a-0 inj1-a r(inj1-x,0) r(inj1-y,0) w(inj1-x,1)
          inj1-b-0 inj1-b r(inj1-x,0) r(inj1-y,0) w(inj1-y,1)""",
      InjectedKind.FRACTURED_READ, """
          inj1-a-0 inj1-a r(inj1-x,0) r(inj1-y,0) w(inj1-x,1) w(inj1-y,1)
          inj1-b-0 inj1-b r(inj1-y,0) r(inj1-x,1)""",
      InjectedKind.NON_MONOTONIC_READ, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1)
          inj1-b-0 inj1-b r(inj1-x,1) r(inj1-y,0) w(inj1-x,2) w(inj1-y,1)
          inj1-c-0 inj1-c r(inj1-y,1) r(inj1-x,1)""",
      InjectedKind.CAUSALITY_VIOLATION, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1)
          inj1-b-0 inj1-b r(inj1-x,1) r(inj1-y,0) w(inj1-y,1)
          inj1-c-0 inj1-c r(inj1-x,0) r(inj1-y,1)""",
      InjectedKind.LONG_FORK, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1)
          inj1-b-0 inj1-b r(inj1-y,0) w(inj1-y,1)
          inj1-c-0 inj1-c r(inj1-x,1) r(inj1-y,0)
          inj1-d-0 inj1-d r(inj1-x,0) r(inj1-y,1)""",
      InjectedKind.SESSION_GUARANTEE_VIOLATION, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1)
          inj1-b-0 inj1-b r(inj1-x,1) w(inj1-x,2)
          inj1-b-1 inj1-b r(inj1-x,1)""",
      InjectedKind.ABORTED_READ, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1) aborted
          inj1-b-0 inj1-b r(inj1-x,1)""",
      InjectedKind.THIN_AIR_READ, """
          inj1-a-0 inj1-a r(inj1-x,1)""",
      InjectedKind.INTERMEDIATE_READ, """
          inj1-a-0 inj1-a r(inj1-x,0) w(inj1-x,1) r(inj1-x,1) w(inj1-x,2)
          inj1-b-0 inj1-b r(inj1-x,1)""");

  @ParameterizedTest
  @EnumSource(InjectedKind.class)
  void shouldEmitTheExactPatternNearTheEndWhenInjectingOneKind(final InjectedKind kind) {
    // Given
    final GeneratorConfig config = GeneratorConfig.defaults().withTransactions(1_000)
        .withInjections(List.of(new Injection(kind, 2)));

    // When
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(config);

    // Then: two instances, the first at 90% of the history, each with the pattern's shape.
    final List<InjectedAnomaly> injected = g.summary().injected();
    assertEquals(2, injected.size());
    assertEquals(900, injected.get(0).firstIndex());
    assertEquals(900 + kind.transactions(), injected.get(1).firstIndex());
    final History expected = HistoryDsl.history(PATTERNS.get(kind));
    for (int i = 0; i < expected.size(); i++) {
      final Transaction want = expected.transactions().get(i);
      final Transaction got = g.history().transactions().get(900 + i);
      assertEquals(want.id(), got.id());
      assertEquals(want.session(), got.session());
      assertEquals(want.status(), got.status());
      assertEquals(want.ops(), got.ops());
      assertEquals(injected.get(0).txnIds().get(i), got.id());
    }
    final Transaction secondInstanceFirst = g.history().transactions().get(900 + kind.transactions());
    assertTrue(secondInstanceFirst.id().startsWith("inj2-"), secondInstanceFirst.id());
    assertTrue(injected.get(1).keys().stream().allMatch(k -> k.startsWith("inj2-")), injected.get(1).keys()::toString);
  }

  @Test
  void shouldOverlapPatternTransactionsInTimeExceptInSessionOrderWhenInjecting() {
    // Given
    final GeneratorConfig config = GeneratorConfig.defaults().withTransactions(500)
        .withInjections(Injection.parseList("LongFork,SessionGuaranteeViolation"));

    // When
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(config);

    // Then: the four LongFork transactions pairwise overlap (no real-time edge among them)...
    final List<Transaction> fork = txns(g, g.summary().injected().get(0));
    for (final Transaction a : fork) {
      for (final Transaction b : fork) {
        assertTrue(a.start() <= b.end() && b.start() <= a.end(), () -> a.id() + " and " + b.id() + " do not overlap");
      }
    }
    // ...while the session-ordered pair follows one another.
    final List<Transaction> sg = txns(g, g.summary().injected().get(1));
    assertTrue(sg.get(1).end() < sg.get(2).start());
    // And the background resumes after the patterns in time.
    final Transaction after = g.history().transactions().get((int) sg.get(0).line() + 2);
    assertTrue(after.start() > sg.get(0).end(), after::toString);
  }

  @Test
  void shouldPlaceInjectionsAtTheConfiguredPositionWhenInjectAtIsGiven() {
    // Given
    final GeneratorConfig start = GeneratorConfig.defaults().withTransactions(100)
        .withInjections(Injection.parseList("WriteSkew")).withInjectAt(0.0);
    final GeneratorConfig end = start.withInjectAt(1.0);

    // When
    final GeneratedHistory first = MtHistoryGenerator.generateWithSummary(start);
    final GeneratedHistory last = MtHistoryGenerator.generateWithSummary(end);

    // Then
    assertEquals(0, first.summary().injected().get(0).firstIndex());
    assertEquals(98, last.summary().injected().get(0).firstIndex());
    assertEquals("inj1-b-0", last.history().transactions().get(99).id());
  }

  @Test
  void shouldParseInjectionListsWhenSpelledLikeTheCli() {
    // When
    final List<Injection> list = Injection.parseList("LostUpdate:3, write_skew:2,THIN-AIR-READ");

    // Then
    assertEquals(List.of(new Injection(InjectedKind.LOST_UPDATE, 3), new Injection(InjectedKind.WRITE_SKEW, 2),
        new Injection(InjectedKind.THIN_AIR_READ, 1)), list);
    assertEquals(List.of(), Injection.parseList(" "));
  }

  @Test
  void shouldRejectUnknownOrBadInjectionsWithAClearMessage() {
    // When
    final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> Injection.parseList("LostUpdates:1"));
    final IllegalArgumentException badCount = assertThrows(IllegalArgumentException.class,
        () -> Injection.parseList("LostUpdate:x"));
    final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> Injection.parseList("LostUpdate:0"));
    final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
        () -> GeneratorConfig.defaults().withTransactions(3).withInjections(Injection.parseList("LongFork")));

    // Then
    assertTrue(unknown.getMessage().contains("unknown anomaly 'LostUpdates'"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("IntermediateRead"), unknown.getMessage());
    assertTrue(badCount.getMessage().contains("bad count"), badCount.getMessage());
    assertTrue(zero.getMessage().contains(">= 1"), zero.getMessage());
    assertTrue(tooMany.getMessage().contains("need 4 transactions"), tooMany.getMessage());
  }

  private static List<Transaction> txns(final GeneratedHistory g, final InjectedAnomaly a) {
    return g.history().transactions().stream().filter(t -> a.txnIds().contains(t.id())).toList();
  }
}
