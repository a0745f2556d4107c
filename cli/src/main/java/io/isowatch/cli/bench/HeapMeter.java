package io.isowatch.cli.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap measurements for the benchmark, from the platform MXBeans.
 *
 * <ul>
 *   <li>{@link #liveBytes()}: heap in use right after full collections: what is reachable.
 *   <li>{@link #startWindow()} / {@link Window#close()}: around one run, the sum of the heap pools'
 *       peak usage (which also counts garbage not yet collected, so it depends on the young
 *       generation's size) and the largest heap in use after any collection during the run (a
 *       lower bound of the live peak, known only if a collection happened).
 * </ul>
 */
public final class HeapMeter implements NotificationListener, AutoCloseable {
  private static final long NOTIFICATION_WAIT_NANOS = 2_000_000_000L;
  private static final int MAX_SETTLING_COLLECTIONS = 6;
  private static final long SETTLED_BYTES = 1L << 20;

  private final List<MemoryPoolMXBean> heapPools;
  private final Set<String> heapPoolNames;
  private final List<GarbageCollectorMXBean> collectors;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  /** After-collection heap use by collector name and collection id, as notified. */
  private final Map<String, Map<Long, Long>> afterGc = new HashMap<>();

  public HeapMeter() {
    heapPools = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP).toList();
    heapPoolNames = heapPools.stream().map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    collectors = ManagementFactory.getGarbageCollectorMXBeans();
    for (final GarbageCollectorMXBean gc : collectors) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** Heap in use after full collections, once two in a row agree within 1 MiB (at most 6). */
  public static long liveBytes() {
    // One collection can leave work for the next (reference processing, finalizable objects), and
    // a stray allocation between them can skew one reading: collect until readings settle.
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < MAX_SETTLING_COLLECTIONS; i++) {
      System.gc();
      final long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < SETTLED_BYTES) {
        return Math.min(previous, used);
      }
      previous = used;
    }
    return previous;
  }

  /** Collects, resets the pools' peaks and starts watching collections. */
  public Window startWindow() {
    final long live = liveBytes();
    heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
    return new Window(live, counts());
  }

  @Override
  public void handleNotification(final Notification n, final Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    final GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long heap = 0;
    for (final Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPoolNames.contains(e.getKey())) {
        heap += e.getValue().getUsed();
      }
    }
    synchronized (afterGc) {
      afterGc.computeIfAbsent(info.getGcName(), k -> new HashMap<>()).put(info.getGcInfo().getId(), heap);
      afterGc.notifyAll();
    }
  }

  @Override
  public void close() {
    for (final NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(this);
      } catch (final ListenerNotFoundException ex) {
        // The constructor added it; losing it means the MXBean is not what the JDK documents.
        throw new IllegalStateException("heap meter listener vanished", ex);
      }
    }
  }

  private Map<String, Long> counts() {
    final Map<String, Long> out = new HashMap<>();
    for (final GarbageCollectorMXBean gc : collectors) {
      out.put(gc.getName(), gc.getCollectionCount());
    }
    return out;
  }

  /** What one run used. */
  public record Usage(long baselineBytes, long peakBytes, long collections, long maxAfterGcBytes) {}

  /** An open measurement window around one run. */
  public final class Window {
    private final long baseline;
    private final Map<String, Long> countsBefore;

    private Window(final long baseline, final Map<String, Long> countsBefore) {
      this.baseline = baseline;
      this.countsBefore = countsBefore;
    }

    /** Ends the window; waits (boundedly) for the notifications of the run's collections. */
    public Usage close() throws InterruptedException {
      long peak = 0;
      for (final MemoryPoolMXBean p : heapPools) {
        peak += p.getPeakUsage().getUsed();
      }
      final Map<String, Long> countsAfter = counts();
      long collections = 0;
      long maxAfter = -1;
      final long deadline = System.nanoTime() + NOTIFICATION_WAIT_NANOS;
      synchronized (afterGc) {
        for (final Map.Entry<String, Long> e : countsAfter.entrySet()) {
          final long from = countsBefore.getOrDefault(e.getKey(), 0L);
          collections += e.getValue() - from;
          for (long id = from + 1; id <= e.getValue(); id++) {
            Long bytes = lookup(e.getKey(), id);
            // Notifications arrive on a service thread, shortly after the collection.
            while (bytes == null && System.nanoTime() < deadline) {
              afterGc.wait(10);
              bytes = lookup(e.getKey(), id);
            }
            if (bytes != null) {
              maxAfter = Math.max(maxAfter, bytes);
            }
          }
        }
        afterGc.clear();
      }
      return new Usage(baseline, peak, collections, maxAfter);
    }

    private Long lookup(final String collector, final long id) {
      final Map<Long, Long> byId = afterGc.get(collector);
      return byId == null ? null : byId.get(id);
    }
  }
}
