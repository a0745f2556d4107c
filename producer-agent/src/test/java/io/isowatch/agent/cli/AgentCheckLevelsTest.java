package io.isowatch.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.agent.target.IsolationMix;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** What {@code agent --check} decides: the default levels, and MIXED for a mix of mixable levels. */
class AgentCheckLevelsTest {
  private static final EnumSet<Level> DEFAULTS = EnumSet.copyOf(CheckOptions.defaults().levels());

  @Test
  void shouldAddMixedWhenTheRunMixesLevels() {
    final EnumSet<Level> want = EnumSet.copyOf(DEFAULTS);
    want.add(Level.MIXED);
    assertEquals(want, AgentCommand.checkOptions(IsolationMix.parse("mix:serializable=1,read-committed=3")).levels());
  }

  @Test
  void shouldDecideTheDefaultLevelsOnlyWhenEveryTransactionRunsAtOneLevel() {
    assertEquals(DEFAULTS, AgentCommand.checkOptions(IsolationMix.parse("read-committed")).levels());
  }

  @Test
  void shouldLeaveMixedOutWhenTheMixHoldsAnAmbiguousLevel() {
    // REPEATABLE READ is SI on PostgreSQL and less on MySQL/MariaDB: MIXED cannot judge it
    assertEquals(DEFAULTS,
        AgentCommand.checkOptions(IsolationMix.parse("mix:serializable=1,repeatable-read=1")).levels());
  }
}
