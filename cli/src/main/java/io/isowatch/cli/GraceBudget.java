package io.isowatch.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.Horizon;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches a segmented {@code check} for a {@code --grace} that holds back more transactions than
 * the heap can keep, and stops it with a line naming {@code --grace} and the heap before the heap
 * is gone (an {@link OutOfMemoryError} would say less and could strike anywhere).
 *
 * <p>The grace holds back every transaction whose end lies within the grace of the latest end
 * seen; from the file's observed rate (transactions per second of end time) that is about {@code
 * rate × grace} transactions, next to the horizon's up to {@code cut factor × horizon}. The
 * estimate alone refuses nothing, since the bytes a transaction costs vary: the run stops only
 * when the heap is still more than {@link #FULL} full after a garbage collection and the grace's
 * share is at least half the horizon's, that is, when lowering {@code --grace} is what would help.
 * Until then the estimate is kept as {@link Fatal#hint}, so that an OutOfMemoryError names it too.
 */
final class GraceBudget implements AutoCloseable {
  /** The fraction of the maximum heap still in use after a collection at which the run stops. */
  static final double FULL = 0.85;
  /** Transactions between two looks at the heap. */
  private static final int EVERY = 1024;

  private final long graceMicros;
  private final Horizon horizon;
  private final String graceText;
  private final long maxHeap;
  private final LongSupplier usedAfterGc;
  private final AfterGc listener;
  private long seen;
  private long firstEnd = Long.MAX_VALUE;
  private long lastEnd = Long.MIN_VALUE;

  /** A budget watching this JVM's heap. */
  static GraceBudget watchingThisJvm(final long graceMicros, final String graceText, final Horizon horizon) {
    final AfterGc listener = AfterGc.register();
    return new GraceBudget(graceMicros, graceText, horizon, Runtime.getRuntime().maxMemory(), listener::usedAfterGc,
        listener);
  }

  /** A budget reading the heap in use after the latest collection from {@code usedAfterGc} (tests). */
  GraceBudget(final long graceMicros, final String graceText, final Horizon horizon, final long maxHeap,
      final LongSupplier usedAfterGc, final AfterGc listener) {
    this.graceMicros = graceMicros;
    this.graceText = graceText;
    this.horizon = horizon;
    this.maxHeap = maxHeap;
    this.usedAfterGc = usedAfterGc;
    this.listener = listener;
  }

  /**
   * Takes the transaction the engine accepted last, read at {@code line} of {@code file}.
   *
   * @throws GraceTooLarge when the grace holds back more than the heap can keep
   */
  void accepted(final Transaction t, final String file, final int line) {
    seen++;
    final long time = t.end() != Transaction.NO_TIME ? t.end() : t.start();
    if (time != Transaction.NO_TIME) {
      firstEnd = Math.min(firstEnd, time);
      lastEnd = Math.max(lastEnd, time);
    }
    if (seen % EVERY != 0) {
      return;
    }
    final long held = heldBack();
    final long retained = retainedByHorizon();
    Fatal.hint("--grace " + graceText + " holds back about " + held + " transactions"
        + (retained == Long.MAX_VALUE ? "" : ", the horizon retains up to " + retained),
        "or lower --grace to the history's disorder");
    final long used = usedAfterGc.getAsLong();
    // The grace's share must matter: at least half the horizon's (the case: about as large).
    if (used > FULL * maxHeap && held >= retained / 2) {
      throw new GraceTooLarge(file + ": line " + line + ": --grace " + graceText + " holds back about " + held
          + " transactions here (" + ratePerSecond() + " per second of end time), more than the heap can keep: "
          + String.format(Locale.ROOT, "%.0f%%", 100.0 * used / maxHeap) + " of -Xmx" + (maxHeap >> 20)
          + "m is still in use after garbage collection; lower --grace to the history's disorder, or raise the heap"
          + " with " + Fatal.JAVA_OPTS_VARIABLE + "=-Xmx" + Math.max(512, 2 * (maxHeap >> 20)) + "m");
    }
  }

  /** About how many transactions the grace holds back at the file's rate so far. */
  long heldBack() {
    if (lastEnd <= firstEnd) {
      return 0;
    }
    final double perMicro = (double) seen / (lastEnd - firstEnd);
    return (long) Math.min(seen, perMicro * graceMicros);
  }

  /** At most how many processed transactions the horizon keeps (a time horizon, at the file's rate). */
  long retainedByHorizon() {
    long retained = Long.MAX_VALUE;
    if (horizon.transactions() != Horizon.UNLIMITED) {
      retained = (long) (horizon.cutFactor() * horizon.transactions());
    }
    if (horizon.micros() != Horizon.UNLIMITED && lastEnd > firstEnd) {
      final double perMicro = (double) seen / (lastEnd - firstEnd);
      retained = Math.min(retained, (long) (horizon.cutFactor() * perMicro * horizon.micros()));
    }
    return retained;
  }

  private long ratePerSecond() {
    return lastEnd <= firstEnd ? 0 : (long) (seen * 1e6 / (lastEnd - firstEnd));
  }

  /**
   * Stops watching the heap. The hint stays: an OutOfMemoryError passing through here is reported
   * after this runs, and must still name the grace; {@link StreamedCheck} clears it on success.
   */
  @Override
  public void close() {
    if (listener != null) {
      listener.close();
    }
  }

  /** The run stopped because the grace holds back more than the heap can keep (exit 3). */
  static final class GraceTooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GraceTooLarge(final String message) {
      super(message);
    }
  }

  /** The heap in use right after the latest garbage collection, from the collectors' notifications. */
  static final class AfterGc implements NotificationListener, AutoCloseable {
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final Set<String> heapPools = new HashSet<>();
    private volatile long usedAfterGc;

    static AfterGc register() {
      final AfterGc l = new AfterGc();
      for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          l.heapPools.add(pool.getName());
        }
      }
      for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (gc instanceof NotificationEmitter e) {
          e.addNotificationListener(l, null, null);
          l.emitters.add(e);
        }
      }
      return l;
    }

    long usedAfterGc() {
      return usedAfterGc;
    }

    @Override
    public void handleNotification(final Notification n, final Object handback) {
      if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
        return;
      }
      final GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
      long used = 0;
      // The map has every pool; metaspace and the code cache are not part of -Xmx.
      for (final Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
        if (heapPools.contains(e.getKey())) {
          used += e.getValue().getUsed();
        }
      }
      usedAfterGc = used;
    }

    @Override
    public void close() {
      for (final NotificationEmitter e : emitters) {
        try {
          e.removeNotificationListener(this);
        } catch (final ListenerNotFoundException ignored) {
          // Already gone: nothing to remove.
        }
      }
    }
  }
}
