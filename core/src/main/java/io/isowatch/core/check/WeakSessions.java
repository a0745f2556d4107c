package io.isowatch.core.check;

/**
 * The sessions of a {@link WeakIndex} (chains of soPred): their members in session order, and each
 * node's session and position in it.
 */
final class WeakSessions {
  final int count;
  final int[] start;
  final int[] members;
  final int[] session;
  final int[] position;

  WeakSessions(final WeakIndex g) {
    final int n = g.n;
    final int[] succ = new int[n + 1];
    int heads = 0;
    for (int t = 1; t <= n; t++) {
      if (g.soPred[t] > 0) {
        succ[g.soPred[t]] = t;
      } else {
        heads++;
      }
    }
    count = heads;
    start = new int[heads + 1];
    members = new int[n];
    session = new int[n + 1];
    position = new int[n + 1];
    int c = 0;
    int k = 0;
    for (int head = 1; head <= n; head++) {
      if (g.soPred[head] != 0) {
        continue;
      }
      start[c] = k;
      int pos = 0;
      for (int t = head; t > 0; t = succ[t]) {
        session[t] = c;
        position[t] = pos++;
        members[k++] = t;
      }
      c++;
    }
    start[c] = k;
  }
}
