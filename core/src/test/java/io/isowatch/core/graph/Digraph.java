package io.isowatch.core.graph;

/**
 * An immutable directed graph in compressed sparse row form. Each edge carries an int label (for
 * the checker: the id of the dependency edge it stands for, or a negative marker for encoding
 * edges such as the real-time chain) and a 0/1 weight used by shortest-path searches.
 */
public final class Digraph {
  private final int nodes;
  private final int[] offsets;
  private final int[] targets;
  private final int[] labels;
  private final byte[] weights;

  Digraph(final int nodes, final int[] offsets, final int[] targets, final int[] labels, final byte[] weights) {
    this.nodes = nodes;
    this.offsets = offsets;
    this.targets = targets;
    this.labels = labels;
    this.weights = weights;
  }

  public int nodes() {
    return nodes;
  }

  public int edges() {
    return targets.length;
  }

  /** Index of the first out-edge of {@code node}; its out-edges are [first, end). */
  public int firstEdge(final int node) {
    return offsets[node];
  }

  public int endEdge(final int node) {
    return offsets[node + 1];
  }

  public int target(final int edge) {
    return targets[edge];
  }

  public int label(final int edge) {
    return labels[edge];
  }

  public int weight(final int edge) {
    return weights[edge];
  }

  /** Collects edges in any order, then packs them by source node (a counting sort, O(V + E)). */
  public static final class Builder {
    private final int nodes;
    private final IntList from = new IntList(1024);
    private final IntList to = new IntList(1024);
    private final IntList label = new IntList(1024);
    private final IntList weight = new IntList(1024);

    public Builder(final int nodes) {
      this.nodes = nodes;
    }

    public Builder add(final int u, final int v, final int edgeLabel, final int edgeWeight) {
      from.add(u);
      to.add(v);
      label.add(edgeLabel);
      weight.add(edgeWeight);
      return this;
    }

    public Builder add(final int u, final int v, final int edgeLabel) {
      return add(u, v, edgeLabel, 1);
    }

    public Digraph build() {
      final int m = from.size();
      final int[] offsets = new int[nodes + 1];
      for (int i = 0; i < m; i++) {
        offsets[from.get(i) + 1]++;
      }
      for (int i = 0; i < nodes; i++) {
        offsets[i + 1] += offsets[i];
      }
      final int[] cursor = java.util.Arrays.copyOf(offsets, nodes);
      final int[] targets = new int[m];
      final int[] labels = new int[m];
      final byte[] weights = new byte[m];
      // Edges keep their insertion order within a node, so searches are deterministic.
      for (int i = 0; i < m; i++) {
        final int slot = cursor[from.get(i)]++;
        targets[slot] = to.get(i);
        labels[slot] = label.get(i);
        weights[slot] = (byte) weight.get(i);
      }
      return new Digraph(nodes, offsets, targets, labels, weights);
    }
  }
}
