package io.isowatch.core.online;

import java.util.Arrays;

/**
 * Retired versions held exactly (docs/segmentation.md, "Retired versions"): per key id, a sorted
 * set of disjoint, non-adjacent value ranges (runs) [lo, hi], and one flag for the key's absent
 * initial version. Membership is exact: never a false positive, never a false negative.
 *
 * <p>Memory follows the runs, not the versions: {@link #BYTES_PER_RUN} bytes each. A key whose
 * retired values are consecutive (IsoWatch's generator writes 1, 2, 3, ... per key; its agent
 * counts per session and key) holds one run however many versions retire. Values retire roughly
 * in ascending order, so an add usually extends the key's last run; an add out of order lands
 * in, extends, or bridges (merges) the runs around it, or opens a new one.
 *
 * <p>The runs are capped ({@code maxRuns} in all, {@link #MAX_RUNS_PER_KEY} per key): {@link #add}
 * opens no run past a cap and returns
 * false, and the caller keeps that version elsewhere (the overflow filter of {@link
 * HorizonSummary}). A version that falls in, or next to, a run is always taken, cap or not.
 */
final class RetiredRuns {
  /** Two longs per run; the per-key arrays' slack and headers are not counted. */
  static final int BYTES_PER_RUN = 16;
  /**
   * Runs per key at most: an add out of order moves the runs after it, so this bounds its cost
   * (64 KiB moved at worst, a few µs) when values are arbitrary; the agent's workloads hold about
   * one run per key and writing session, far below it. Past it, the key's new runs are refused as
   * past the cap.
   */
  static final int MAX_RUNS_PER_KEY = 4_096;

  private long maxRuns;
  /** Per key id: lo0, hi0, lo1, hi1, ... ascending; null for a key with none. */
  private long[][] runs = new long[16][];
  private int[] counts = new int[16];
  private final java.util.BitSet absent = new java.util.BitSet();
  private long total;
  private long taken;

  RetiredRuns(final long maxRuns) {
    if (maxRuns < 0) {
      throw new IllegalArgumentException("maxRuns must be >= 0, got " + maxRuns);
    }
    this.maxRuns = maxRuns;
  }

  /**
   * An empty run-set with the default cap: what a checkpoint of format 3 or older restores (its
   * filters hold every version it retired; versions retired from then on go to runs).
   */
  static RetiredRuns empty() {
    return new RetiredRuns(Horizon.DEFAULT_MAX_RUN_BYTES / BYTES_PER_RUN);
  }

  /**
   * Sets the cap (a restore takes the restoring engine's configuration): runs already held above a
   * lower cap stay, and no new run opens until they are under it again.
   */
  void capAt(final long runs) {
    if (runs < 0) {
      throw new IllegalArgumentException("maxRuns must be >= 0, got " + runs);
    }
    maxRuns = runs;
  }

  long maxRuns() {
    return maxRuns;
  }

  /** The runs held, over all keys. */
  long runs() {
    return total;
  }

  /** Versions taken (with repeats): those {@link #add} returned true for. */
  long taken() {
    return taken;
  }

  /** Keys whose absent initial version is held. */
  int absentKeys() {
    return absent.cardinality();
  }

  /** Bytes the runs take, {@link #BYTES_PER_RUN} each, plus a bit per key for the absent flags. */
  long bytes() {
    return total * BYTES_PER_RUN + (absent.length() + 7) / 8;
  }

  /**
   * Holds (k, v) (or k's absent version, {@code absent}) exactly, if it is in, next to or between
   * runs of k, or if a new run fits under the cap. Returns false, holding nothing, otherwise.
   */
  boolean add(final int k, final long v, final boolean isAbsent) {
    if (isAbsent) {
      absent.set(k);
      taken++;
      return true;
    }
    grow(k);
    long[] r = runs[k];
    final int n = counts[k];
    // The common case: the key's next value, or one already in its last run.
    if (n > 0) {
      final long hi = r[2 * n - 1];
      if (v == hi + 1 && hi != Long.MAX_VALUE) {
        r[2 * n - 1] = v;
        taken++;
        return true;
      }
      if (v <= hi && v >= r[2 * n - 2]) {
        taken++;
        return true;
      }
    }
    final int i = floor(r, n, v);
    if (i >= 0 && v <= r[2 * i + 1]) {
      taken++;
      return true;
    }
    final boolean left = i >= 0 && r[2 * i + 1] != Long.MAX_VALUE && r[2 * i + 1] + 1 == v;
    final boolean right = i + 1 < n && r[2 * i + 2] != Long.MIN_VALUE && r[2 * i + 2] - 1 == v;
    if (left && right) {
      // v bridges runs i and i+1: one run now.
      r[2 * i + 1] = r[2 * i + 3];
      System.arraycopy(r, 2 * i + 4, r, 2 * i + 2, 2 * (n - i - 2));
      counts[k] = n - 1;
      total--;
    } else if (left) {
      r[2 * i + 1] = v;
    } else if (right) {
      r[2 * i + 2] = v;
    } else {
      if (total >= maxRuns || n >= MAX_RUNS_PER_KEY) {
        return false;
      }
      if (r == null || r.length < 2 * (n + 1)) {
        r = r == null ? new long[2] : Arrays.copyOf(r, Math.max(2 * (n + 1), r.length + (r.length >> 1) + 2));
        runs[k] = r;
      }
      System.arraycopy(r, 2 * (i + 1), r, 2 * (i + 2), 2 * (n - i - 1));
      r[2 * (i + 1)] = v;
      r[2 * (i + 1) + 1] = v;
      counts[k] = n + 1;
      total++;
    }
    taken++;
    return true;
  }

  /** Whether (k, v), or k's absent version, is held: exact. */
  boolean contains(final int k, final long v, final boolean isAbsent) {
    if (isAbsent) {
      return absent.get(k);
    }
    if (k >= counts.length || counts[k] == 0) {
      return false;
    }
    final long[] r = runs[k];
    final int i = floor(r, counts[k], v);
    return i >= 0 && v <= r[2 * i + 1];
  }

  /** The index of the last run of the first {@code n} whose lo is at most v, or -1. */
  private static int floor(final long[] r, final int n, final long v) {
    int lo = 0;
    int hi = n - 1;
    while (lo <= hi) {
      final int mid = (lo + hi) >>> 1;
      if (r[2 * mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi;
  }

  private void grow(final int k) {
    if (k >= counts.length) {
      final int size = Math.max(k + 1, 2 * counts.length);
      counts = Arrays.copyOf(counts, size);
      runs = Arrays.copyOf(runs, size);
    }
  }

  /** Key ids with runs or an absent flag: one past the highest. */
  int keyBound() {
    int n = Math.max(counts.length, absent.length());
    while (n > 0 && (n > counts.length || counts[n - 1] == 0) && !absent.get(n - 1)) {
      n--;
    }
    return n;
  }

  /** The runs of key k, lo0, hi0, lo1, hi1, ... (a copy). */
  long[] runsOf(final int k) {
    return k >= counts.length || counts[k] == 0 ? new long[0] : Arrays.copyOf(runs[k], 2 * counts[k]);
  }

  boolean absent(final int k) {
    return absent.get(k);
  }

  /**
   * Restores key k's runs (a checkpoint's, ascending, disjoint and non-adjacent) and absent flag,
   * with the count of versions taken; refuses runs out of order.
   */
  void restore(final int k, final long[] lohi, final boolean isAbsent) {
    if (lohi.length % 2 != 0) {
      throw new IllegalArgumentException("runs of key " + k + ": an odd number of bounds");
    }
    for (int i = 0; i < lohi.length; i += 2) {
      if (lohi[i] > lohi[i + 1] || i > 0 && (lohi[i - 1] == Long.MAX_VALUE || lohi[i] <= lohi[i - 1] + 1)) {
        throw new IllegalArgumentException("runs of key " + k + " out of order, overlapping or adjacent at run " + i / 2);
      }
    }
    grow(k);
    total += lohi.length / 2 - counts[k];
    runs[k] = lohi.length == 0 ? null : lohi.clone();
    counts[k] = lohi.length / 2;
    absent.set(k, isAbsent);
  }

  void restoreTaken(final long n) {
    taken = n;
  }
}
