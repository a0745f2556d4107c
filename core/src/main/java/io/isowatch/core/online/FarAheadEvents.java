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

  /**
   * The rule itself, shared by the whole-history search ({@link #find}) and the stream's {@link
   * Sequencer} ({@link Latest}): a time is far ahead when it exceeds the other sessions' latest time
   * by more than {@code futureMicros}. Without a time, or without another session's time to compare
   * with, nothing is far ahead.
   */
  static boolean farAhead(final long time, final long othersLatest, final long futureMicros) {
    return time != TxnIndex.NO_END && othersLatest != Long.MIN_VALUE
        && othersLatest <= Long.MAX_VALUE - futureMicros && time > othersLatest + futureMicros;
  }

  /**
   * The latest time of each session seen so far, for a stream (docs/streaming.md, "No false positive
   * from time"), which cannot look ahead as {@link #find} does: a transaction is judged on arrival
   * against {@link #othersLatest} of its session. A flagged time still counts as its session's
   * latest, so that a session legitimately ahead while the others pause vouches for them when they
   * resume (were it left out, the resuming sessions would be far ahead of it, and so on for ever).
   * Session latest times only grow, so the two largest, with the session of the largest, answer
   * for every session.
   */
  static final class Latest {
    /** The session of {@link #first}; {@link #RESTORED} for a checkpoint's watermark, -1 for none. */
    private int firstSession = -1;
    private long first = Long.MIN_VALUE;
    private long second = Long.MIN_VALUE;
    private long[] latest = new long[0];

    /** Not a session: the latest end time of a restored checkpoint, the reference of every session. */
    static final int RESTORED = -2;

    /** The latest time of the sessions other than {@code session} ({@code Long.MIN_VALUE}: none seen). */
    long othersLatest(final int session) {
      return session == firstSession ? second : first;
    }

    /** Notes a time of {@code session} ({@link #RESTORED}: the checkpointed latest end). */
    void saw(final int session, final long time) {
      if (time == TxnIndex.NO_END) {
        return;
      }
      if (session >= 0) {
        if (session >= latest.length) {
          final int old = latest.length;
          latest = java.util.Arrays.copyOf(latest, Math.max(session + 1, 2 * old));
          java.util.Arrays.fill(latest, old, latest.length, Long.MIN_VALUE);
        }
        if (time <= latest[session]) {
          return;
        }
        latest[session] = time;
      }
      if (session == firstSession) {
        first = Math.max(first, time);
      } else if (time > first) {
        second = first;
        first = time;
        firstSession = session;
      } else if (time > second) {
        second = time;
      }
    }
  }

  static Found find(final List<Transaction> txns, final long futureMicros) {
    final int n = txns.size();
    final int[] session = new int[n];
    final StringIntMap ids = new StringIntMap(64);
    int sessions = 0;
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      int s = ids.get(t.session());
      if (s < 0) {
        s = sessions++;
        ids.putNew(t.session(), s);
      }
      session[i] = s;
    }
    return find(txns, futureMicros, session, sessions);
  }

  /**
   * As {@link #find(List, long)}, with the sessions already numbered by the caller: {@code
   * session[i]} the number of transaction i's session, numbered 0, 1, ... in order of first
   * appearance, {@code sessions} of them.
   */
  static Found find(final List<Transaction> txns, final long futureMicros, final int[] session, final int sessions) {
    final int n = txns.size();
    final boolean[] flagged = new boolean[n];
    final long[] reference = new long[n];
    final long[] time = new long[n];
    for (int i = 0; i < n; i++) {
      time[i] = TxnIndex.timeKey(txns.get(i));
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
      boolean any = false;
      for (int i = 0; i < n; i++) {
        if (!flagged[i] && session[i] == first && farAhead(time[i], second, futureMicros)) {
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
