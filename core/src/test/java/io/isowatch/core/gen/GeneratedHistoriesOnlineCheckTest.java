package io.isowatch.core.gen;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;

/** {@link GeneratedHistoriesCheckTest}, every case, on the incremental engine ({@link OnlineChecker#check}). */
class GeneratedHistoriesOnlineCheckTest extends GeneratedHistoriesCheckTest {
  @Override
  CheckResult engine(final History history, final CheckOptions options) {
    return OnlineChecker.check(history, options);
  }
}
