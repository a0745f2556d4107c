package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Store {@code anomalies}: exact counts per name, and just the anomalies the capped report can
 * list, in canonical order (one that depends on the history only): read anomalies by reader (session, rank) and op,
 * then lost updates by their pair, then cycles in the order they were found. Per category it
 * keeps the first {@code cap} and the first of each name, which is all that {@link AnomalyList}'s
 * selection (the first of every name, then the earliest) can pick, so the state stays bounded
 * however many anomalies a history has.
 */
final class AnomalyLog {
  /** One anomaly: its name, sort keys within its category, and how to build it. */
  record Entry(String name, int first, int second, long seq, Supplier<Anomaly> build) {}

  private final int cap;
  private final Map<String, Long> counts = new LinkedHashMap<>();
  private final Category reads;
  private final Category lostUpdates;
  private final Category cycles;
  private long total;
  private long seq;

  AnomalyLog(final int cap, final Comparator<Entry> readOrder, final Comparator<Entry> pairOrder) {
    this.cap = cap;
    this.reads = new Category(readOrder);
    this.lostUpdates = new Category(pairOrder);
    this.cycles = new Category(Comparator.comparingLong(Entry::seq));
  }

  void addRead(final String name, final int reader, final int op, final Supplier<Anomaly> build) {
    reads.add(new Entry(name, reader, op, seq++, build));
    count(name);
  }

  /**
   * Removes a read anomaly this log recorded by {@link #addRead} (a retraction): from the counts,
   * and from the listing if it was retained there. The caller must know it was recorded here
   * (ThinAirReads keeps only this state's); false only when the category is empty.
   */
  boolean removeRead(final String name, final int reader, final int op) {
    if (!reads.remove(name, reader, op)) {
      return false;
    }
    counts.computeIfPresent(name, (n, c) -> c == 1 ? null : c - 1);
    total--;
    return true;
  }

  void addLostUpdate(final int a, final int b, final Supplier<Anomaly> build) {
    lostUpdates.add(new Entry("LostUpdate", a, b, seq++, build));
    count("LostUpdate");
  }

  void addCycle(final String name, final Supplier<Anomaly> build) {
    cycles.add(new Entry(name, -1, -1, seq++, build));
    count(name);
  }

  long readCount() {
    return reads.count;
  }

  long lostUpdateCount() {
    return lostUpdates.count;
  }

  long total() {
    return total;
  }

  Map<String, Long> counts() {
    return counts;
  }

  boolean truncated() {
    return total > cap;
  }

  /** The listed anomalies, built now. */
  List<Anomaly> select() {
    final AnomalyList list = new AnomalyList(cap);
    for (final Category c : List.of(reads, lostUpdates, cycles)) {
      for (final Entry e : c.retained()) {
        list.add(e.name(), e.build());
      }
    }
    return list.select();
  }

  /**
   * Every anomaly retained, beyond the listing's cap too (bounded: per category the first {@code
   * cap} and the first of each name), built now: what proves a level among the anomalies counted
   * when the listing is truncated.
   */
  List<Anomaly> retained() {
    final List<Anomaly> out = new ArrayList<>();
    for (final Category c : List.of(reads, lostUpdates, cycles)) {
      for (final Entry e : c.retained()) {
        out.add(e.build().get());
      }
    }
    return out;
  }

  private void count(final String name) {
    counts.merge(name, 1L, Long::sum);
    total++;
  }

  /** One category's retained entries: the first {@code cap} and the first of each name. */
  private final class Category {
    private final Comparator<Entry> order;
    private final List<Entry> smallest = new ArrayList<>();
    private final Map<String, Entry> firstByName = new HashMap<>();
    private long count;

    Category(final Comparator<Entry> order) {
      this.order = order;
    }

    void add(final Entry e) {
      count++;
      firstByName.merge(e.name(), e, (old, now) -> order.compare(now, old) < 0 ? now : old);
      if (smallest.size() == cap && order.compare(e, smallest.get(cap - 1)) >= 0) {
        return;
      }
      int lo = 0;
      int hi = smallest.size();
      while (lo < hi) {
        final int mid = (lo + hi) >>> 1;
        if (order.compare(smallest.get(mid), e) <= 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      smallest.add(lo, e);
      if (smallest.size() > cap) {
        smallest.remove(cap);
      }
    }

    /**
     * Forgets the entry of that name, reader and op, which this category recorded. One beyond the
     * listing cap is only counted: it leaves the count all the same.
     */
    boolean remove(final String name, final int first, final int second) {
      if (count == 0) {
        return false;
      }
      count--;
      smallest.removeIf(e -> e.name().equals(name) && e.first() == first && e.second() == second);
      final Entry head = firstByName.get(name);
      if (head != null && head.first() == first && head.second() == second) {
        firstByName.remove(name);
        for (final Entry e : smallest) {
          if (e.name().equals(name)) {
            firstByName.put(name, e);
            break;
          }
        }
      }
      return true;
    }

    List<Entry> retained() {
      final List<Entry> all = new ArrayList<>(smallest);
      for (final Entry e : firstByName.values()) {
        if (!smallest.contains(e)) {
          all.add(e);
        }
      }
      all.sort(order);
      return all;
    }
  }
}
