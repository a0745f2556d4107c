package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Store {@code sessions}: session name → id, and per session its released transactions sorted by
 * rank (seq, or arrival order where the source gives none), to find a transaction's neighbours in
 * session order (SO edges) and seq gaps. Transactions of a session usually arrive in rank order,
 * so keeping the lists sorted costs an append.
 */
final class Sessions {
  private final StringIntMap ids = new StringIntMap(64);
  private final List<String> names = new ArrayList<>();
  private final List<LongList> ranks = new ArrayList<>();
  private final List<IntList> members = new ArrayList<>();
  private final IntList arrivals = new IntList();

  int idOf(final String name) {
    final int id = ids.get(name);
    if (id >= 0) {
      return id;
    }
    final int s = names.size();
    ids.putNew(name, s);
    names.add(name);
    ranks.add(new LongList(8));
    members.add(new IntList(8));
    arrivals.add(0);
    return s;
  }

  /** Takes over the session names (same ids) and arrival counters of {@code old}. */
  void seed(final Sessions old) {
    for (int s = 0; s < old.count(); s++) {
      seed(old.name(s), old.arrivals(s));
    }
  }

  /** Makes the next session id for {@code name}, with this arrival counter (a cut, a restore). */
  void seed(final String name, final int arrivalCount) {
    if (ids.get(name) >= 0) {
      throw new IllegalStateException("session seeded twice: " + name);
    }
    arrivals.set(idOf(name), arrivalCount);
  }

  /** The session's arrival counter: how many of its transactions without seq arrived. */
  int arrivals(final int s) {
    return arrivals.get(s);
  }

  /** The id of a known session, or -1 (never makes one). */
  int find(final String name) {
    return ids.get(name);
  }

  int count() {
    return names.size();
  }

  String name(final int s) {
    return names.get(s);
  }

  /** The rank of the next transaction of the session that has no seq: its arrival index. */
  long nextArrivalRank(final int s) {
    final int r = arrivals.get(s);
    arrivals.set(s, r + 1);
    return r;
  }

  /** Records a released member; equal ranks keep release order. */
  void add(final int s, final long rank, final int slot) {
    final LongList r = ranks.get(s);
    final IntList m = members.get(s);
    int i = r.size();
    if (i > 0 && r.get(i - 1) > rank) {
      i = upperBound(r, rank);
      r.insert(i, rank);
      m.insert(i, slot);
    } else {
      r.add(rank);
      m.add(slot);
    }
  }

  /** Whether a released member of the session already has this rank. */
  boolean hasRank(final int s, final long rank) {
    final LongList r = ranks.get(s);
    final int i = upperBound(r, rank);
    return i > 0 && r.get(i - 1) == rank;
  }

  /** The nearest member before {@code slot} (in rank order) that satisfies {@code p}, or -1. */
  int before(final int s, final long rank, final int slot, final IntPredicate p) {
    final int i = position(s, rank, slot);
    final IntList m = members.get(s);
    for (int j = i - 1; j >= 0; j--) {
      if (p.test(m.get(j))) {
        return m.get(j);
      }
    }
    return -1;
  }

  /** The nearest member after {@code slot} (in rank order) that satisfies {@code p}, or -1. */
  int after(final int s, final long rank, final int slot, final IntPredicate p) {
    final int i = position(s, rank, slot);
    final IntList m = members.get(s);
    for (int j = i + 1; j < m.size(); j++) {
      if (p.test(m.get(j))) {
        return m.get(j);
      }
    }
    return -1;
  }

  /** Members of the session in rank order. */
  IntList members(final int s) {
    return members.get(s);
  }

  private int position(final int s, final long rank, final int slot) {
    final LongList r = ranks.get(s);
    final IntList m = members.get(s);
    if (m.get(m.size() - 1) == slot) {
      return m.size() - 1; // the usual case: the newest member
    }
    int i = upperBound(r, rank) - 1;
    while (i >= 0 && m.get(i) != slot) {
      i--;
    }
    if (i < 0) {
      throw new IllegalStateException("slot " + slot + " is not a member of session " + names.get(s));
    }
    return i;
  }

  /** First index whose rank is greater than {@code rank}. */
  private static int upperBound(final LongList r, final long rank) {
    int lo = 0;
    int hi = r.size();
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (r.get(mid) <= rank) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
