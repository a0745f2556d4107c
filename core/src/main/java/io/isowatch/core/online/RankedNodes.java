package io.isowatch.core.online;

import java.util.Arrays;

/**
 * Nodes kept sorted by a rank (their place in a session), for the incremental weak check ({@link
 * IncrementalWeakCheck}): one per session (its members), and one per session and key (the members
 * that write the key). Transactions mostly arrive in session order, so an insertion is an append;
 * a late one shifts the tail. Equal ranks keep their arrival order.
 */
final class RankedNodes {
  static final int NONE = -1;

  private long[] ranks = new long[4];
  private int[] nodes = new int[4];
  private int size;

  /** Inserts {@code node} at {@code rank} (after the nodes of an equal rank); returns its index. */
  int insert(final long rank, final int node) {
    if (size == ranks.length) {
      ranks = Arrays.copyOf(ranks, size * 2);
      nodes = Arrays.copyOf(nodes, size * 2);
    }
    int at = size;
    if (size > 0 && ranks[size - 1] > rank) {
      at = upperBound(rank);
      System.arraycopy(ranks, at, ranks, at + 1, size - at);
      System.arraycopy(nodes, at, nodes, at + 1, size - at);
    }
    ranks[at] = rank;
    nodes[at] = node;
    size++;
    return at;
  }

  int size() {
    return size;
  }

  int node(final int index) {
    return nodes[index];
  }

  /** The node at {@code index}, or NONE when the index lies outside. */
  int nodeOrNone(final int index) {
    return index >= 0 && index < size ? nodes[index] : NONE;
  }

  /** The last node of a rank below {@code rank}, or NONE. */
  int lastBelow(final long rank) {
    return nodeOrNone(lowerBound(rank) - 1);
  }

  /** The last node of a rank at most {@code rank}, or NONE. */
  int lastAtMost(final long rank) {
    return nodeOrNone(upperBound(rank) - 1);
  }

  /** The first index whose rank is at least {@code rank}. */
  private int lowerBound(final long rank) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (ranks[mid] < rank) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The first index whose rank is above {@code rank}. */
  private int upperBound(final long rank) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (ranks[mid] <= rank) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
