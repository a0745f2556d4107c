package io.isowatch.core.check;

import io.isowatch.core.history.History;

/**
 * Decides SSER, SER and SI on a history and explains every violation. Exact on mini-transaction
 * histories (MTC, Algorithm 1 with Section IV-C); elsewhere it reports UNKNOWN with typed findings
 * rather than guessing.
 */
public final class Checker {
  private final CheckOptions options;

  public Checker(final CheckOptions options) {
    this.options = options;
  }

  public CheckResult check(final History history) {
    throw new UnsupportedOperationException("engine lands next");
  }
}
