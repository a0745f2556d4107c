package io.isowatch.core.online;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;

/** Results compared across engines and runs: everything but the seconds spent, which depend on the machine. */
final class Results {
  private Results() {}

  static CheckResult withoutTime(final CheckResult r) {
    final CheckStats s = r.stats();
    return new CheckResult(r.verdicts(), r.reasons(), r.anomalies(), r.findings(),
        new CheckStats(s.transactions(), s.committed(), s.aborted(), s.unknownPromoted(), s.unknownIgnored(),
            s.sessions(), s.keys(), s.operations(), s.longRmwTransactions(), s.largeReadOnlyTransactions(),
            s.edges(), s.anomaliesByName(), s.anomaliesTruncated(), 0.0, s.retired()));
  }
}
