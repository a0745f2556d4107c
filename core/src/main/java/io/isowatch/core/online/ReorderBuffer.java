package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;

/**
 * The reorder buffer: transactions that arrived but were not yet released, smallest in π first.
 * Arrivals in π order (the common case, and always for a {@link WholeHistoryCheck}) append to a sorted run
 * in O(1); others go to a binary heap.
 */
final class ReorderBuffer {
  private final IndexSort.IntComparator order;
  private IntList run = new IntList(1 << 10);
  private int runHead;
  private final IntList heap = new IntList(64);

  ReorderBuffer(final IndexSort.IntComparator order) {
    this.order = order;
  }

  void add(final int slot) {
    if (run.size() == runHead || order.compare(run.get(run.size() - 1), slot) <= 0) {
      run.add(slot);
    } else {
      heapPush(slot);
    }
  }

  /** The buffered slots, in no particular order. */
  IntList slots() {
    final IntList out = new IntList(size() + 1);
    for (int i = runHead; i < run.size(); i++) {
      out.add(run.get(i));
    }
    for (int i = 0; i < heap.size(); i++) {
      out.add(heap.get(i));
    }
    return out;
  }

  boolean isEmpty() {
    return size() == 0;
  }

  int size() {
    return run.size() - runHead + heap.size();
  }

  /** The smallest buffered slot in π; the buffer must not be empty. */
  int peek() {
    if (heap.size() == 0) {
      return run.get(runHead);
    }
    if (run.size() == runHead) {
      return heap.get(0);
    }
    final int a = run.get(runHead);
    final int b = heap.get(0);
    return order.compare(a, b) <= 0 ? a : b;
  }

  int poll() {
    final int min = peek();
    if (runHead < run.size() && run.get(runHead) == min) {
      runHead++;
      if (runHead == run.size()) {
        run.clear();
        runHead = 0;
      } else if (runHead >= 4096 && 2 * runHead >= run.size()) {
        // Keep the run's storage proportional to what is buffered, not to all ever buffered.
        final IntList rest = new IntList(run.size() - runHead + 1024);
        for (int i = runHead; i < run.size(); i++) {
          rest.add(run.get(i));
        }
        run = rest;
        runHead = 0;
      }
    } else {
      heapPop();
    }
    return min;
  }

  private void heapPush(final int slot) {
    heap.add(slot);
    int i = heap.size() - 1;
    while (i > 0) {
      final int parent = (i - 1) >>> 1;
      if (order.compare(heap.get(parent), slot) <= 0) {
        break;
      }
      heap.set(i, heap.get(parent));
      i = parent;
    }
    heap.set(i, slot);
  }

  private void heapPop() {
    final int last = heap.removeLast();
    final int n = heap.size();
    if (n == 0) {
      return;
    }
    int i = 0;
    while (true) {
      int c = 2 * i + 1;
      if (c >= n) {
        break;
      }
      if (c + 1 < n && order.compare(heap.get(c + 1), heap.get(c)) < 0) {
        c++;
      }
      if (order.compare(heap.get(c), last) >= 0) {
        break;
      }
      heap.set(i, heap.get(c));
      i = c;
    }
    heap.set(i, last);
  }
}
