package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;

/**
 * The unsegmented engine and a segmented one, fed the same history in order and flushed: the
 * segmentation property tests compare their results.
 */
record FullAndSegmented(OnlineChecker full, OnlineChecker seg) {
  static FullAndSegmented run(final History h, final CheckOptions options, final long grace, final Horizon horizon) {
    final OnlineChecker full = new OnlineChecker(options, OnlineOptions.streaming(grace));
    final OnlineChecker seg = new OnlineChecker(options, OnlineOptions.streaming(grace).withHorizon(horizon));
    for (final Transaction t : h.transactions()) {
      full.accept(t);
      seg.accept(t);
    }
    full.flush();
    seg.flush();
    return new FullAndSegmented(full, seg);
  }
}
