package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A counterexample of MIXED whose cycle is one the classic engine also reports (a write skew
 * between two SER readers, a G1c) is a distinct anomaly: it names the read whose axiom broke, so
 * its identity (type, name, transactions, cycle edges, read; levels left out) differs from the
 * classic one's, and the topology publishes both, as {@code check} lists both.
 */
class MixedCounterexampleIdentityTest {

  @Test
  void shouldNameTheBrokenReadWhenTheClassicEngineReportsTheSameCycle() {
    for (final String dsl : List.of("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,2)
        """, """
        T1 s1 r(y,2) w(x,1)
        T2 s2 r(x,1) w(y,2)
        """)) {
      // Given: every transaction declares SER
      final List<Transaction> txns = new ArrayList<>();
      for (final Transaction t : HistoryDsl.history(dsl).transactions()) {
        txns.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
            "SER", t.line()));
      }

      // When
      final CheckResult r = WholeHistoryCheck.check(new History(txns),
          CheckOptions.defaults().withLevels(EnumSet.of(Level.SER, Level.MIXED)));

      // Then: two anomalies on the same cycle, told apart by the read the counterexample names
      assertEquals(2, r.anomalies().size(), r.anomalies().toString());
      final Anomaly mixed = r.anomalies().stream().filter(a -> a.violates().contains(Level.MIXED)).findFirst()
          .orElseThrow();
      final Anomaly classic = r.anomalies().stream().filter(a -> !a.violates().contains(Level.MIXED)).findFirst()
          .orElseThrow();
      assertEquals(edges(classic), edges(mixed));
      assertNotNull(mixed.read(), mixed.explanation());
      assertNotEquals(classic.read(), mixed.read());
    }
  }

  private static Set<String> edges(final Anomaly a) {
    return a.cycle().stream().map(e -> e.from() + ">" + e.to() + ":" + e.kind()).collect(Collectors.toSet());
  }
}
