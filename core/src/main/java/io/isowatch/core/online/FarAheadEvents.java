package io.isowatch.core.online;

import io.isowatch.core.history.Transaction;
import java.util.List;

/**
 * The transactions of a whole history whose time lies far ahead of every other session's
 * (docs/streaming.md, "No false positive from time"): offline there is no arrival to compare an
 * event's time with, so a session's clock is judged by the others. A transaction is far ahead when
 * its time (its end, or its start without one) exceeds by more than {@code futureMicros} the latest
 * time of every other session's transactions not far ahead themselves. Found by rounds: the
 * session with the latest time is compared with the next session's latest, its transactions beyond
 * that plus the bound are flagged, and the next round looks again without them (two broken clocks in
 * two sessions do not vouch for each other). A history of one session has no reference: nothing is
 * flagged. A pause of all sessions flags nothing either, since the others resume too.
 */
final class FarAheadEvents {
  /** Rounds at most: each flags one session's far-ahead transactions; more broken clocks than this stay unflagged. */
  static final int MAX_ROUNDS = 64;

  /**
   * @param flagged per transaction of the list, whether it is far ahead
   * @param trustedLatest the latest time of the transactions not flagged ({@code Long.MIN_VALUE} if none has a time)
   * @param reference per transaction, the other sessions' latest time it was compared with when flagged
   * @param count how many are flagged
   */
  record Found(boolean[] flagged, long trustedLatest, long[] reference, int count) {}

  private FarAheadEvents() {}

  static Found find(final List<Transaction> txns, final long futureMicros) {
    final int n = txns.size();
    final boolean[] flagged = new boolean[n];
    final long[] reference = new long[n];
    final long[] time = new long[n];
    final int[] session = new int[n];
    final StringIntMap ids = new StringIntMap(64);
    int sessions = 0;
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      time[i] = TxnIndex.timeKey(t);
      int s = ids.get(t.session());
      if (s < 0) {
        s = sessions++;
        ids.putNew(t.session(), s);
      }
      session[i] = s;
    }
    int count = 0;
    for (int round = 0; round < MAX_ROUNDS && sessions > 1; round++) {
      final long[] latest = new long[sessions];
      java.util.Arrays.fill(latest, Long.MIN_VALUE);
      for (int i = 0; i < n; i++) {
        if (!flagged[i] && time[i] != TxnIndex.NO_END) {
          latest[session[i]] = Math.max(latest[session[i]], time[i]);
        }
      }
      int first = -1;
      for (int s = 0; s < latest.length; s++) {
        if (latest[s] != Long.MIN_VALUE && (first < 0 || latest[s] > latest[first])) {
          first = s;
        }
      }
      long second = Long.MIN_VALUE;
      for (int s = 0; s < latest.length; s++) {
        if (s != first) {
          second = Math.max(second, latest[s]);
        }
      }
      if (first < 0 || second == Long.MIN_VALUE || second > Long.MAX_VALUE - futureMicros) {
        break;
      }
      final long bound = second + futureMicros;
      boolean any = false;
      for (int i = 0; i < n; i++) {
        if (!flagged[i] && session[i] == first && time[i] != TxnIndex.NO_END && time[i] > bound) {
          flagged[i] = true;
          reference[i] = second;
          count++;
          any = true;
        }
      }
      if (!any) {
        break;
      }
    }
    long trusted = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      if (!flagged[i] && time[i] != TxnIndex.NO_END) {
        trusted = Math.max(trusted, time[i]);
      }
    }
    return new Found(flagged, trusted, reference, count);
  }
}
