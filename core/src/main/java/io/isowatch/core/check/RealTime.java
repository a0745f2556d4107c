package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;

/**
 * Real-time order between transactions (MTC Definition 6), shared by both engines: T1 precedes T2
 * iff T1's end plus the clock-skew tolerance is before T2's start, where both times are usable.
 */
public final class RealTime {
  private RealTime() {}

  /** Whether t1 precedes t2 in real time under the skew tolerance. */
  public static boolean precedes(final Transaction t1, final Transaction t2, final long skewMicros) {
    return endUsable(t1) && startUsable(t2) && t1.end() + skewMicros < t2.start();
  }

  /**
   * The end time can order this transaction before others. A transaction whose client never saw
   * it finish (no end, as for an indeterminate one) precedes nothing in real time, exactly as a
   * pending operation in linearizability; one ending before it starts has no usable times.
   */
  public static boolean endUsable(final Transaction t) {
    return endUsable(t.start(), t.end());
  }

  /** As {@link #endUsable(Transaction)}, for a transaction with these times. */
  public static boolean endUsable(final long start, final long end) {
    return end != Transaction.NO_TIME && (start == Transaction.NO_TIME || end >= start);
  }

  /** The start time can order others before this transaction. */
  public static boolean startUsable(final Transaction t) {
    return startUsable(t.start(), t.end());
  }

  /** As {@link #startUsable(Transaction)}, for a transaction with these times. */
  public static boolean startUsable(final long start, final long end) {
    return start != Transaction.NO_TIME && (end == Transaction.NO_TIME || end >= start);
  }

  /**
   * Real time is fully known for this transaction: it has a usable start, and a usable end unless
   * it is indeterminate (then no end is the truth, not a gap). Otherwise SSER cannot be decided
   * without guessing when it ran.
   */
  public static boolean known(final Transaction t) {
    return startUsable(t) && (endUsable(t) || t.status() == TxnStatus.UNKNOWN);
  }
}
