package io.isowatch.core.check;

import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;

/** {@link CheckerEngineTest}, every case and every assertion, on the engine in main ({@link OnlineChecker#check}). */
class CheckerEngineOnlineTest extends CheckerEngineTest {
  @Override
  CheckResult engine(final History history, final CheckOptions options) {
    return OnlineChecker.check(history, options);
  }
}
