package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rw-register generator with blind writes (issue 14): its histories hold the simulated level, and the search decides them. */
class RegisterHistoryGeneratorTest {
  private static History generate(final SimulatedLevel level, final long n, final int keys) throws Exception {
    final List<Transaction> out = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(7, n, 8, keys, 6, 0.5, level), out::add);
    return new History(out);
  }

  @Test
  void shouldBeDecidedStrictlySerializableWhenTheSimulatedDatabaseIsSerial() throws Exception {
    // Given
    final History h = generate(SimulatedLevel.SER, 2_000, 50);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then: blind writes everywhere, and still every level decided
    assertTrue(r.findings().stream().anyMatch(f -> f.kind() == FindingKind.BLIND_WRITE));
    for (final Level level : Level.CLASSIC) {
      assertEquals(Verdict.SATISFIED, r.verdicts().get(level), () -> level + ": " + r.reasons() + " " + r.anomalies());
    }
  }

  @Test
  void shouldBeDecidedSnapshotIsolatedWhenTheSimulatedDatabaseIsSnapshotIsolation() throws Exception {
    // Given: few keys, so that first-committer-wins aborts some and write skews may appear
    final History h = generate(SimulatedLevel.SI, 2_000, 30);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then
    assertTrue(h.transactions().stream().anyMatch(t -> t.status() == io.isowatch.core.history.TxnStatus.ABORTED));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), () -> r.reasons() + " " + r.anomalies());
    assertTrue(r.verdicts().get(Level.SER) != Verdict.UNKNOWN, () -> r.reasons().toString());
  }

  @Test
  void shouldSendMostOperationsToTheFirstKeysWhenKeysAreZipfian() throws Exception {
    // Given: 100 keys, zipf θ = 0.99 (PolySI's default distribution), and the same workload uniform
    final List<Transaction> zipf = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(7, 2_000, 8, 100, 6, 0.5, SimulatedLevel.SER,
        new KeyDistribution.Zipf(KeyDistribution.Zipf.DEFAULT_THETA)), zipf::add);
    final List<Transaction> uniform = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(7, 2_000, 8, 100, 6, 0.5, SimulatedLevel.SER),
        uniform::add);

    // When
    final double zipfShare = shareOfKey0(zipf);
    final double uniformShare = shareOfKey0(uniform);

    // Then: key 0 gets 1/H(100, 0.99) ≈ 19 % of operations under zipf, about 1 % uniformly; and the
    // seven-argument config is the uniform one (same seed, same history)
    assertTrue(zipfShare > 0.15 && zipfShare < 0.25, () -> "zipf share of k0 " + zipfShare);
    assertTrue(uniformShare < 0.02, () -> "uniform share of k0 " + uniformShare);
    final List<Transaction> uniformAgain = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(7, 2_000, 8, 100, 6, 0.5, SimulatedLevel.SER,
        new KeyDistribution.Uniform()), uniformAgain::add);
    assertEquals(uniform, uniformAgain);
  }

  private static double shareOfKey0(final List<Transaction> txns) {
    long k0 = 0;
    long all = 0;
    for (final Transaction t : txns) {
      for (final io.isowatch.core.history.Op op : t.ops()) {
        all++;
        k0 += "k0".equals(op.key()) ? 1 : 0;
      }
    }
    return (double) k0 / all;
  }
}
