package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MtHistoryGeneratorTest {
  private static final GeneratorConfig SMALL = GeneratorConfig.defaults().withTransactions(5_000).withKeys(50)
      .withDistribution(new KeyDistribution.Zipf(0.99));

  @ParameterizedTest
  @EnumSource(SimulatedLevel.class)
  void shouldProduceTheSameHistoryWhenTheSeedIsTheSame(final SimulatedLevel level) {
    // Given
    final GeneratorConfig config = SMALL.withLevel(level).withSeed(42)
        .withInjections(Injection.parseList("LostUpdate:2,LongFork"));

    // When
    final History first = MtHistoryGenerator.generateHistory(config);
    final History second = MtHistoryGenerator.generateHistory(config);
    final History otherSeed = MtHistoryGenerator.generateHistory(config.withSeed(43));

    // Then
    assertEquals(first, second);
    assertNotEquals(first, otherSeed);
  }

  @Test
  void shouldEmitExactlyTheRequestedNumberOfTransactionsWhenInjecting() {
    // Given
    final GeneratorConfig config = SMALL.withTransactions(1_000)
        .withInjections(Injection.parseList("LostUpdate:3,WriteSkew:2,ThinAirRead"));

    // When
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(config);

    // Then
    assertEquals(1_000, g.history().size());
    assertEquals(1_000, g.summary().transactions());
    assertEquals(3 * 2 + 2 * 2 + 1, g.summary().injected().stream().mapToInt(i -> i.txnIds().size()).sum());
    assertEquals(g.summary().committed() + g.summary().aborted(), g.summary().transactions());
  }

  @ParameterizedTest
  @EnumSource(SimulatedLevel.class)
  void shouldWriteUniqueNonZeroValuesPerKeyWhenGenerating(final SimulatedLevel level) {
    // Given
    final GeneratorConfig config = SMALL.withLevel(level).withKeys(5).withSessions(30)
        .withInjections(Injection.parseList(allKinds()));

    // When
    final History h = MtHistoryGenerator.generateHistory(config);

    // Then: aborted transactions' writes count too, so WR stays determined for every value read.
    final Map<String, Set<Long>> written = new HashMap<>();
    long writes = 0;
    for (final Transaction t : h.transactions()) {
      for (final Op op : t.ops()) {
        if (op.isWrite()) {
          writes++;
          assertNotEquals(0L, op.value(), () -> "initial value written by " + t);
          assertTrue(written.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value()),
              () -> "value written twice: " + op + " in " + t);
        }
      }
    }
    assertTrue(writes > 3_000, "expected a write-heavy history, got " + writes + " writes");
  }

  @ParameterizedTest
  @EnumSource(SimulatedLevel.class)
  void shouldPrecedeEveryWriteByAReadOfItsKeyWhenGenerating(final SimulatedLevel level) {
    // Given
    final GeneratorConfig config = SMALL.withLevel(level).withInjections(Injection.parseList(allKinds()));

    // When
    final History h = MtHistoryGenerator.generateHistory(config);

    // Then: MTC Definition 8, one or two reads and at most two writes.
    for (final Transaction t : h.transactions()) {
      final Set<String> readSoFar = new HashSet<>();
      int reads = 0;
      int writes = 0;
      for (final Op op : t.ops()) {
        if (op.isRead()) {
          reads++;
          readSoFar.add(op.key());
        } else {
          writes++;
          assertTrue(readSoFar.contains(op.key()), () -> "blind write in " + t);
        }
      }
      final int r = reads;
      final int w = writes;
      assertTrue(r >= 1 && r <= 2 && w <= 2, () -> "not a mini-transaction: " + t + " (" + r + " reads, " + w + " writes)");
    }
  }

  @ParameterizedTest
  @EnumSource(SimulatedLevel.class)
  void shouldNumberEachSessionFromZeroAndKeepItsTransactionsApartInTimeWhenGenerating(final SimulatedLevel level) {
    // Given
    final GeneratorConfig config = SMALL.withLevel(level).withInjections(Injection.parseList(allKinds()));

    // When
    final History h = MtHistoryGenerator.generateHistory(config);

    // Then
    final Map<String, Transaction> last = new HashMap<>();
    for (final Transaction t : h.transactions()) {
      assertTrue(t.hasTimes() && t.start() < t.end(), () -> "bad times on " + t);
      final Transaction prev = last.put(t.session(), t);
      final long expectedSeq = prev == null ? 0 : prev.seq() + 1;
      assertEquals(expectedSeq, t.seq(), () -> "seq of " + t.id());
      assertEquals(t.session() + "-" + t.seq(), t.id());
      if (prev != null) {
        assertTrue(prev.end() < t.start(), () -> prev.id() + " overlaps " + t.id() + " in its session");
      }
    }
    assertEquals(SMALL.sessions(), last.keySet().stream().filter(s -> s.matches("s\\d+")).count());
  }

  @Test
  void shouldReplaySeriallyWithIncreasingStartsWhenSimulatingSer() {
    // Given
    final GeneratorConfig config = SMALL.withTransactions(20_000).withLevel(SimulatedLevel.SER);

    // When
    final History h = MtHistoryGenerator.generateHistory(config);

    // Then: source order is a serial order (every read sees the latest write before it), and start
    // times increase along it, so no real-time edge points backwards.
    final Map<String, Long> state = new HashMap<>();
    long lastStart = Long.MIN_VALUE;
    for (final Transaction t : h.transactions()) {
      assertEquals(TxnStatus.COMMITTED, t.status());
      assertTrue(t.start() > lastStart, () -> "start not increasing at " + t.id());
      lastStart = t.start();
      for (final Op op : t.ops()) {
        if (op.isRead()) {
          assertEquals(state.getOrDefault(op.key(), 0L), op.value(), () -> "stale read in " + t);
        } else {
          state.put(op.key(), op.value());
        }
      }
    }
  }

  @Test
  void shouldAbortConflictingWritersAndNeverLoseAnUpdateWhenSimulatingSi() {
    // Given: few keys, many sessions, so first-committer-wins has work to do.
    final GeneratorConfig config = SMALL.withTransactions(20_000).withKeys(10).withSessions(40)
        .withLevel(SimulatedLevel.SI);

    // When
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(config);

    // Then
    assertTrue(g.summary().aborted() > 100, "expected first-committer-wins aborts, got " + g.summary().aborted());
    final Set<String> abortedWrites = new HashSet<>();
    final Set<String> overwritten = new HashSet<>();
    for (final Transaction t : g.history().transactions()) {
      if (t.status() == TxnStatus.ABORTED) {
        t.ops().stream().filter(Op::isWrite).forEach(op -> abortedWrites.add(op.key() + "=" + op.value()));
      }
    }
    for (final Transaction t : g.history().transactions()) {
      final Set<String> readHere = new HashSet<>();
      for (final Op op : t.ops()) {
        if (op.isRead()) {
          assertTrue(!abortedWrites.contains(op.key() + "=" + op.value()), () -> t + " read an aborted write");
          readHere.add(op.key() + "=" + op.value());
        } else if (t.status() == TxnStatus.COMMITTED) {
          // No lost update: at most one committed transaction overwrites each version it read.
          final String version = t.ops().stream().filter(o -> o.isRead() && o.key().equals(op.key()))
              .findFirst().map(o -> o.key() + "=" + o.value()).orElseThrow();
          assertTrue(overwritten.add(version), () -> "two committed writers overwrote " + version);
        }
      }
    }
  }

  @Test
  void shouldOmitTimesButKeepTheSameOperationsWhenTimestampsAreOff() {
    // Given
    final GeneratorConfig config = SMALL.withTransactions(2_000);

    // When
    final History timed = MtHistoryGenerator.generateHistory(config);
    final History untimed = MtHistoryGenerator.generateHistory(config.withTimestamps(false));

    // Then
    for (int i = 0; i < timed.size(); i++) {
      final Transaction a = timed.transactions().get(i);
      final Transaction b = untimed.transactions().get(i);
      assertEquals(Transaction.NO_TIME, b.start());
      assertEquals(Transaction.NO_TIME, b.end());
      assertEquals(a.ops(), b.ops());
      assertEquals(a.id(), b.id());
    }
  }

  @Test
  void shouldDrawOnlyTheConfiguredShapesWithTheReadOnlyRatioWhenGenerating() {
    // Given
    final GeneratorConfig config = SMALL.withTransactions(20_000).withReadOnlyRatio(0.3)
        .withShapes(List.of(MtShape.R1R2, MtShape.R1W1));

    // When
    final History h = MtHistoryGenerator.generateHistory(config);

    // Then
    long readOnly = 0;
    for (final Transaction t : h.transactions()) {
      final List<Op> ops = t.ops();
      if (ops.size() == 2 && ops.get(0).isRead() && ops.get(1).isRead()) {
        readOnly++;
        assertNotEquals(ops.get(0).key(), ops.get(1).key(), () -> "R1R2 must read two keys: " + t);
      } else {
        assertTrue(ops.size() == 2 && ops.get(1).isWrite() && ops.get(0).key().equals(ops.get(1).key()),
            () -> "expected R1W1: " + t);
      }
    }
    final double ratio = readOnly / (double) h.size();
    assertTrue(Math.abs(ratio - 0.3) < 0.02, "read-only ratio " + ratio);
  }

  @Test
  void shouldKeepGeneratorMemoryFlatWhenStreamingManyTransactions() throws Exception {
    // Given: a sink that retains nothing and samples the live heap early and at the very end.
    final GeneratorConfig config = GeneratorConfig.defaults().withTransactions(100_000)
        .withInjections(Injection.parseList("LostUpdate:5"));
    final long[] count = new long[1];
    final long[] heapAt = new long[2];

    // When
    final GenerationSummary summary = MtHistoryGenerator.generate(config, t -> {
      count[0]++;
      if (count[0] == 1_000) {
        heapAt[0] = HeapProbe.liveBytes();
      } else if (count[0] == config.transactions()) {
        heapAt[1] = HeapProbe.liveBytes();
      }
    });

    // Then: retaining 99,000 transactions would cost tens of MB; the generator keeps per-key and
    // per-session state only.
    assertEquals(100_000, count[0]);
    assertEquals(100_000, summary.transactions());
    final long growth = heapAt[1] - heapAt[0];
    assertTrue(growth < 8L * 1024 * 1024, "live heap grew by " + growth + " bytes while streaming");
  }

  static String allKinds() {
    final StringBuilder sb = new StringBuilder();
    for (final InjectedKind k : InjectedKind.values()) {
      sb.append(sb.length() == 0 ? "" : ",").append(k.patternName());
    }
    return sb.toString();
  }
}
