package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;

/**
 * Store {@code time-points}: the SSER graph's real-time chain. One point per counted transaction
 * with a usable end, at its end time, chained in time order (equal times in creation order), plus
 * a head point before all of them; and per point the transactions attached to it, those whose
 * start (minus the skew tolerance) it is the latest point before. Then T1 reaches T2 through
 * the chain iff T1 ended before T2 started (MTC Definition 6, in O(n) edges).
 *
 * <p>Points normally join at the end, since transactions are processed by end time. One that
 * joins in the middle (a promoted indeterminate or a late transaction) takes over, from its
 * predecessor, the attached transactions that started after it.
 */
final class TimePoints {
  static final int HEAD = 0;

  private final LongList time;
  private final IntList sorted;
  private final LongList sortedTime;
  private final IntMultimap attached;

  TimePoints(final int expected) {
    final int n = Math.max(1 << 10, expected);
    time = new LongList(n);
    sorted = new IntList(n);
    sortedTime = new LongList(n);
    attached = new IntMultimap(n);
    time.add(Long.MIN_VALUE);
  }

  /** Adds a point at time t; returns its index in time order (the head excluded). */
  int insert(final long t) {
    final int p = time.size();
    time.add(t);
    final int n = sortedTime.size();
    if (n == 0 || sortedTime.get(n - 1) <= t) {
      sortedTime.add(t);
      sorted.add(p);
      return n;
    }
    final int i = upperBound(t);
    sortedTime.insert(i, t);
    sorted.insert(i, p);
    return i;
  }

  /** The point at index i of time order. */
  int pointAt(final int i) {
    return sorted.get(i);
  }

  /** The point before index i of time order (the head for i = 0). */
  int before(final int i) {
    return i == 0 ? HEAD : sorted.get(i - 1);
  }

  /** The point after index i of time order, or -1. */
  int after(final int i) {
    return i + 1 < sorted.size() ? sorted.get(i + 1) : -1;
  }

  /** The latest point strictly before time t (the head if none). */
  int latestBefore(final long t) {
    int lo = 0;
    int hi = sortedTime.size();
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (sortedTime.get(mid) < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == 0 ? HEAD : sorted.get(lo - 1);
  }

  long time(final int p) {
    return time.get(p);
  }

  void attach(final int p, final int slot) {
    attached.add(p, slot);
  }

  int firstAttached(final int p) {
    return attached.first(p);
  }

  int nextAttached(final int entry) {
    return attached.next(entry);
  }

  int attachedSlot(final int entry) {
    return attached.value(entry);
  }

  private int upperBound(final long t) {
    int lo = 0;
    int hi = sortedTime.size();
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (sortedTime.get(mid) <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
