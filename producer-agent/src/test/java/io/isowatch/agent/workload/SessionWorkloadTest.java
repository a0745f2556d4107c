package io.isowatch.agent.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.KeyDistribution;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionWorkloadTest {
  private static WorkloadConfig config(final String shapes, final Double readOnly, final long seed) {
    return new WorkloadConfig(new KeySpace(10), new KeyDistribution.Uniform(), ShapeMix.parse(shapes), readOnly, seed);
  }

  private static List<TxnPlan> draw(final SessionWorkload w, final int n) {
    final List<TxnPlan> plans = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      plans.add(w.next());
    }
    return plans;
  }

  @Test
  void shouldWriteUniqueNonZeroValuesEncodingTheSession() {
    // Given
    final CasHints hints = new CasHints();
    final SessionWorkload s0 = new SessionWorkload(config("paper", null, 1), 0, hints);
    final SessionWorkload s5 = new SessionWorkload(config("paper", null, 1), 5, hints);

    // When
    final List<Long> values = new ArrayList<>();
    final List<String> keyValues = new ArrayList<>();
    final java.util.Map<String, List<Long>> s0PerKey = new java.util.HashMap<>();
    for (final TxnPlan p : draw(s0, 1000)) {
      p.ops().stream().filter(op -> op instanceof PlannedOp.Write).map(op -> (PlannedOp.Write) op).forEach(w -> {
        values.add(w.value());
        keyValues.add(w.key() + "=" + w.value());
        s0PerKey.computeIfAbsent(w.key(), k -> new ArrayList<>()).add(w.value());
      });
    }
    for (final TxnPlan p : draw(s5, 1000)) {
      p.ops().stream().filter(op -> op instanceof PlannedOp.Write).map(op -> (PlannedOp.Write) op).forEach(w -> {
        values.add(w.value());
        keyValues.add(w.key() + "=" + w.value());
      });
    }

    // Then: unique per key, and one session's values of a key consecutive (1, 2, 3, ... in its counter)
    assertEquals(keyValues.size(), new HashSet<>(keyValues).size(), "values must be unique per key");
    for (final List<Long> perKey : s0PerKey.values()) {
      for (int i = 0; i < perKey.size(); i++) {
        assertEquals((1L << 40) | (i + 1), perKey.get(i), "the values of one key of session 0: " + perKey);
      }
    }
    assertTrue(s0PerKey.size() > 1 && values.size() > new HashSet<>(values).size(), "no value shared by two keys");
    assertTrue(values.stream().allMatch(v -> v > 0));
    assertTrue(values.stream().anyMatch(v -> ValueEncoder.clientId(v) == 6));
    assertTrue(values.stream().allMatch(v -> ValueEncoder.clientId(v) == 1 || ValueEncoder.clientId(v) == 6));
    assertEquals((1L << 40) | 1, new ValueEncoder(1).next("x"));
    assertEquals((1L << 40) | 1, new ValueEncoder(1).next("y"));
  }

  @Test
  void shouldFollowTheShapeWithDistinctKeysAndReadsBeforeWrites() {
    // Given
    final SessionWorkload w = new SessionWorkload(config("R1R2W1W2", null, 3), 0, new CasHints());

    // When
    final List<TxnPlan> plans = draw(w, 200);

    // Then
    for (final TxnPlan p : plans) {
      assertEquals(4, p.ops().size());
      final String k1 = ((PlannedOp.Read) p.ops().get(0)).key();
      final String k2 = ((PlannedOp.Read) p.ops().get(1)).key();
      assertNotEquals(k1, k2);
      assertEquals(k1, ((PlannedOp.Write) p.ops().get(2)).key());
      assertEquals(k2, ((PlannedOp.Write) p.ops().get(3)).key());
    }
  }

  @Test
  void shouldDrawTheSameSequenceWhenSeedAndSessionAreTheSame() {
    // Given
    final SessionWorkload a = new SessionWorkload(config("paper", null, 9), 2, new CasHints());
    final SessionWorkload b = new SessionWorkload(config("paper", null, 9), 2, new CasHints());
    final SessionWorkload c = new SessionWorkload(config("paper", null, 10), 2, new CasHints());

    // When / Then
    final List<TxnPlan> pa = draw(a, 100);
    assertEquals(pa, draw(b, 100));
    assertNotEquals(pa, draw(c, 100));
  }

  @Test
  void shouldHonourTheReadOnlyRatio() {
    // Given
    final SessionWorkload w = new SessionWorkload(config("paper", 0.8, 4), 0, new CasHints());

    // When
    final long readOnly = draw(w, 10_000).stream().filter(TxnPlan::readOnly).count();

    // Then
    assertEquals(8000, readOnly, 150);
  }

  @Test
  void shouldUseFixedKeyPairsWhenWriteSkewPreset() {
    // Given
    final SessionWorkload w = new SessionWorkload(config("writeskew", null, 5), 0, new CasHints());

    // When / Then: slot 1 is k2p, slot 2 is k2p+1
    for (final TxnPlan p : draw(w, 200)) {
      final int k1 = Integer.parseInt(((PlannedOp.Read) p.ops().get(0)).key().substring(1));
      final int k2 = Integer.parseInt(((PlannedOp.Read) p.ops().get(1)).key().substring(1));
      assertEquals(0, k1 % 2);
      assertEquals(k1 + 1, k2);
    }
  }

  @Test
  void shouldRetryWithTheSameKeysAndFreshValues() {
    // Given
    final SessionWorkload w = new SessionWorkload(config("R1W1R2W2", null, 6), 0, new CasHints());
    final TxnPlan first = w.next();

    // When
    final TxnPlan retry = w.retry(first);

    // Then
    assertEquals(first.readKeys(), retry.readKeys());
    assertEquals(first.writeKeys(), retry.writeKeys());
    final Set<Long> before = new HashSet<>();
    first.ops().stream().filter(op -> op instanceof PlannedOp.Write).forEach(op -> before.add(((PlannedOp.Write) op).value()));
    retry.ops().stream().filter(op -> op instanceof PlannedOp.Write)
        .forEach(op -> assertTrue(!before.contains(((PlannedOp.Write) op).value()), "a retry must not reuse a value"));
  }

  @Test
  void shouldExpectTheLastSeenValueWhenCas() {
    // Given
    final CasHints hints = new CasHints();
    hints.saw("k0", 77L);
    final WorkloadConfig cfg = new WorkloadConfig(new KeySpace(1), new KeyDistribution.Uniform(), ShapeMix.parse("cas"), null, 1);

    // When
    final PlannedOp op = new SessionWorkload(cfg, 0, hints).next().ops().get(0);

    // Then
    assertEquals("k0", ((PlannedOp.Cas) op).key());
    assertEquals(77L, ((PlannedOp.Cas) op).expected());
  }

  @Test
  void shouldRejectAConfigThatCannotBeDrawn() {
    // Given / When / Then
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new WorkloadConfig(new KeySpace(1),
        new KeyDistribution.Uniform(), ShapeMix.parse("R1R2"), null, 1)).getMessage().contains("at least 2"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new WorkloadConfig(new KeySpace(10),
        new KeyDistribution.Uniform(), ShapeMix.parse("writeskew"), 0.5, 1)).getMessage().contains("read-only shape"));
  }

  private static WorkloadConfig lists(final Double readOnly) {
    return new WorkloadConfig(new KeySpace(3), new KeyDistribution.Uniform(), ShapeMix.paper(), readOnly, 7,
        new ListAppend(4));
  }

  @Test
  void shouldDrawListReadsAndAppendsOfOneToMaxOpsWhenTheWorkloadIsListAppend() {
    // Given
    final SessionWorkload w = new SessionWorkload(lists(null), 0, new CasHints());

    // When
    final List<TxnPlan> plans = draw(w, 2000);

    // Then: only list ops, 1 … 4 of them, every size drawn, appends unique per key
    final Set<Integer> sizes = new HashSet<>();
    final Set<String> appended = new HashSet<>();
    for (final TxnPlan p : plans) {
      sizes.add(p.ops().size());
      for (final PlannedOp op : p.ops()) {
        assertTrue(op instanceof PlannedOp.ReadList || op instanceof PlannedOp.Append, op.toString());
        if (op instanceof PlannedOp.Append a) {
          assertTrue(appended.add(a.key() + "/" + a.element()), "drawn twice: " + a);
        }
      }
      assertEquals(p.readOnly(), p.shape().equals(SessionWorkload.LIST_READ), p.toString());
    }
    assertEquals(Set.of(1, 2, 3, 4), sizes);
  }

  @Test
  void shouldOnlyReadOrAlwaysAppendAsTheReadOnlyRatioSays() {
    // Given / When
    final List<TxnPlan> readers = draw(new SessionWorkload(lists(1.0), 0, new CasHints()), 500);
    final List<TxnPlan> writers = draw(new SessionWorkload(lists(0.0), 0, new CasHints()), 500);

    // Then
    assertTrue(readers.stream().allMatch(TxnPlan::readOnly));
    assertTrue(writers.stream().noneMatch(TxnPlan::readOnly));
  }

  @Test
  void shouldRetryAListAppendWithFreshElementsOnTheSameKeys() {
    // Given
    final SessionWorkload w = new SessionWorkload(lists(0.0), 0, new CasHints());
    final TxnPlan failed = w.next();

    // When
    final TxnPlan retry = w.retry(failed);

    // Then
    assertEquals(failed.ops().size(), retry.ops().size());
    for (int i = 0; i < failed.ops().size(); i++) {
      final PlannedOp before = failed.ops().get(i);
      final PlannedOp after = retry.ops().get(i);
      if (before instanceof PlannedOp.Append a) {
        final PlannedOp.Append b = (PlannedOp.Append) after;
        assertEquals(a.key(), b.key());
        assertNotEquals(a.element(), b.element());
      } else {
        assertEquals(before, after);
      }
    }
  }

  @Test
  void shouldReadEveryListInTheSnapshotOfAListAppendWorkload() {
    // Given / When
    final TxnPlan snapshot = new SessionWorkload(lists(null), 0, new CasHints()).snapshot();

    // Then
    assertEquals(List.of(new PlannedOp.ReadList("k0"), new PlannedOp.ReadList("k1"), new PlannedOp.ReadList("k2")),
        snapshot.ops());
  }
}
