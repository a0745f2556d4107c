package io.isowatch.core.online;

import java.util.Arrays;

/**
 * For the incremental weak check's RA arcs ({@link IncrementalWeakCheck}) when CC's clocks are not
 * kept (they need {@link RankedNodes}' binary searches): per key and session, the members that
 * write the key, as a list linked backwards in rank order through three shared arrays. Members
 * mostly arrive in session order, so an insertion appends to the arrays' ends and updates a
 * per-key, per-session head, and the nearest earlier writer of a key is the head or a step back
 * from it: no object or array per key and session, and the memory touched stays small. A member
 * that arrives late walks back to its place. Equal ranks keep their arrival order, as in {@link
 * RankedNodes}.
 */
final class SessionWriterChains {
  private static final int NONE = RankedNodes.NONE;

  /** Per key, per session: the entry of the highest rank, or NONE. */
  private int[][] head = new int[0][];
  private int[] node = new int[1024];
  private long[] rank = new long[1024];
  /** The entry before each, in rank order, or NONE. */
  private int[] prev = new int[1024];
  private int size;

  /** Inserts {@code n}, a member of {@code session} at {@code r} writing {@code key} (after the entries of an equal rank). */
  void insert(final int key, final int session, final long r, final int n) {
    final int[] heads = heads(key, session);
    if (size == node.length) {
      node = Arrays.copyOf(node, 2 * size);
      rank = Arrays.copyOf(rank, 2 * size);
      prev = Arrays.copyOf(prev, 2 * size);
    }
    final int e = size++;
    node[e] = n;
    rank[e] = r;
    int cur = heads[session];
    int next = NONE;
    while (cur != NONE && rank[cur] > r) {
      next = cur;
      cur = prev[cur];
    }
    prev[e] = cur;
    if (next == NONE) {
      heads[session] = e;
    } else {
      prev[next] = e;
    }
  }

  /** The last member of {@code session} writing {@code key} at a rank below {@code r}, or NONE. */
  int lastBelow(final int key, final int session, final long r) {
    if (key >= head.length || head[key] == null || session >= head[key].length) {
      return NONE;
    }
    int cur = head[key][session];
    while (cur != NONE && rank[cur] >= r) {
      cur = prev[cur];
    }
    return cur == NONE ? NONE : node[cur];
  }

  private int[] heads(final int key, final int session) {
    if (key >= head.length) {
      head = Arrays.copyOf(head, Math.max(key + 1, 2 * head.length));
    }
    int[] heads = head[key];
    if (heads == null || session >= heads.length) {
      final int old = heads == null ? 0 : heads.length;
      heads = heads == null ? new int[Math.max(4, session + 1)] : Arrays.copyOf(heads, Math.max(session + 1, 2 * old));
      Arrays.fill(heads, old, heads.length, NONE);
      head[key] = heads;
    }
    return heads;
  }
}
