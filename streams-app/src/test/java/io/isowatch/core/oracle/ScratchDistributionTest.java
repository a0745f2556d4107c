package io.isowatch.core.oracle;

import io.isowatch.core.check.Level;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ScratchDistributionTest {
  @Test
  void print() {
    final long t0 = System.nanoTime();
    final Map<String, Integer> c = new TreeMap<>();
    long choices = 0;
    long maxChoices = 0;
    for (long s = 0; s < 10000; s++) {
      final RandomHistories.Generated g = RandomHistories.generate(s);
      final OracleVerdict v = BruteForceOracle.judge(g.history(), g.options());
      choices += v.choices();
      maxChoices = Math.max(maxChoices, v.choices());
      final boolean mt = MiniTransactions.isProper(g.history(), g.options().initialValue());
      for (final Level l : Level.values()) {
        c.merge(l + "=" + v.holds(l), 1, Integer::sum);
        c.merge((mt ? "mt " : "non ") + l + "=" + v.holds(l), 1, Integer::sum);
      }
      c.merge("mode " + g.mode() + " sser=" + v.sser() + " ser=" + v.ser() + " si=" + v.si(), 1, Integer::sum);
      c.merge("combo sser=" + v.sser() + " ser=" + v.ser() + " si=" + v.si() + " known=" + v.sserWithKnownRt(), 1, Integer::sum);
      c.merge(mt ? "proper-mt" : "non-mt", 1, Integer::sum);
      c.merge("allfalse-int-or-read=" + (!v.si() && v.choices() == 0), 1, Integer::sum);
      for (final String t : g.traits()) c.merge("trait " + t, 1, Integer::sum);
      c.merge("size " + g.history().size(), 1, Integer::sum);
      if (s < 0) System.out.println(g.describe() + " -> " + v);
    }
    c.forEach((k, v) -> System.out.println(k + " : " + v));
    System.out.println("choices total=" + choices + " max=" + maxChoices + " ms=" + (System.nanoTime() - t0) / 1_000_000);
  }
}
