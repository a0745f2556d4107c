package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Read;

/**
 * Per-session vector clocks of (SO ∪ WR)+, CC's premise: for each node, its session, its rank in
 * that session (1 for the first), and per session the highest rank that reaches it. Both CC checks
 * of MIXED read them ({@link MixedChains} for known version orders, {@link MixedForkSearch} for
 * forked keys), so they are built in one place.
 */
final class SessionClocks {
  final int[] session;
  final int[] rank;
  final int[][] clock;
  final int sessions;

  private SessionClocks(final int[] session, final int[] rank, final int[][] clock, final int sessions) {
    this.sessions = sessions;
    this.session = session;
    this.rank = rank;
    this.clock = clock;
  }

  /**
   * The clocks of nodes 1..n, visited in {@code order}, a topological order of SO ∪ WR; null when
   * sessions × nodes would exceed {@link MixedChains#MAX_CLOCK_ENTRIES} (the caller says why).
   */
  static SessionClocks of(final WeakGraph g, final int n, final int[] order) {
    final int[] session = new int[n + 1];
    final int[] rank = new int[n + 1];
    int sessions = 0;
    for (final int t : order) {
      final int p = g.soPred[t];
      session[t] = p > 0 ? session[p] : sessions++;
      rank[t] = p > 0 ? rank[p] + 1 : 1;
    }
    if ((long) sessions * (n + 1) > MixedChains.MAX_CLOCK_ENTRIES) {
      return null;
    }
    final int[][] clock = new int[n + 1][];
    for (final int t : order) {
      final int[] c = new int[sessions];
      if (g.soPred[t] > 0) {
        max(c, clock[g.soPred[t]]);
      }
      for (final Read r : g.reads[t]) {
        if (r.writer() != WeakGraph.INIT) {
          max(c, clock[r.writer()]);
        }
      }
      c[session[t]] = rank[t];
      clock[t] = c;
    }
    return new SessionClocks(session, rank, clock, sessions);
  }

  private static void max(final int[] into, final int[] from) {
    for (int i = 0; i < into.length; i++) {
      into[i] = Math.max(into[i], from[i]);
    }
  }
}
