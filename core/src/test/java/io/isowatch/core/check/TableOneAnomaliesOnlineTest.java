package io.isowatch.core.check;

import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;

/**
 * The Table I fixtures and their neighbours ({@link TableOneAnomaliesTest}, every case and every
 * assertion) on the engine's whole-history check, {@link OnlineChecker#check}.
 */
class TableOneAnomaliesOnlineTest extends TableOneAnomaliesTest {
  @Override
  CheckResult engine(final History history, final CheckOptions options) {
    return OnlineChecker.check(history, options);
  }
}
