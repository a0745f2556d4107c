package io.isowatch.agent.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shapes a workload draws from, and how keys are assigned to their slots.
 *
 * <p>Presets (accepted by {@link #parse} alone or mixed with explicit shapes):
 *
 * <ul>
 *   <li>{@code paper}: R1, R1R2, R1W1, R1R2W2, R1R2W1W2, R1W1R2W2 (the default);
 *   <li>{@code full}: {@code paper} plus R1W1W1 (needed for intermediate reads) and R1R2W1;
 *   <li>{@code writeskew}: R1R2W1 and R1R2W2 on paired keys (slot 1 = {@code k2p}, slot 2 =
 *       {@code k2p+1}, the pair p drawn from the key distribution over K/2 pairs), so that two
 *       transactions on the same pair read both keys and each write a different one: the pattern
 *       snapshot isolation lets through (WriteSkew);
 *   <li>{@code cas}: only lightweight compare-and-set transactions.
 * </ul>
 *
 * @param shapes the distinct shapes, drawn uniformly (or by read-only ratio)
 * @param pairedKeys true when two-slot shapes use a fixed key pair (write-skew preset)
 */
public record ShapeMix(List<Shape> shapes, boolean pairedKeys) {
  private static final Map<String, List<String>> PRESETS = Map.of(
      "paper", List.of("R1", "R1R2", "R1W1", "R1R2W2", "R1R2W1W2", "R1W1R2W2"),
      "full", List.of("R1", "R1R2", "R1W1", "R1W1W1", "R1R2W1", "R1R2W2", "R1R2W1W2", "R1W1R2W2"),
      "writeskew", List.of("R1R2W1", "R1R2W2"),
      "cas", List.of("CAS"));

  public ShapeMix {
    shapes = List.copyOf(shapes);
    if (shapes.isEmpty()) {
      throw new IllegalArgumentException("--shapes needs at least one shape");
    }
  }

  public static ShapeMix paper() {
    return parse("paper");
  }

  /** Parses a comma-separated list of shapes and preset names, e.g. {@code paper,R1W1W1}. */
  public static ShapeMix parse(final String text) {
    final Map<String, Shape> distinct = new LinkedHashMap<>();
    boolean paired = false;
    for (final String raw : text.split(",")) {
      final String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      final List<String> preset = PRESETS.get(item.toLowerCase(Locale.ROOT));
      if (preset != null) {
        paired |= item.equalsIgnoreCase("writeskew");
        for (final String p : preset) {
          final Shape s = Shape.parse(p);
          distinct.putIfAbsent(s.name(), s);
        }
      } else {
        final Shape s = Shape.parse(item);
        distinct.putIfAbsent(s.name(), s);
      }
    }
    return new ShapeMix(new ArrayList<>(distinct.values()), paired);
  }

  /** Shapes that never write. */
  public List<Shape> readOnlyShapes() {
    return shapes.stream().filter(Shape::readOnly).toList();
  }

  /** Shapes that write (including CAS). */
  public List<Shape> writingShapes() {
    return shapes.stream().filter(s -> !s.readOnly()).toList();
  }

  /** The largest number of distinct keys any shape needs. */
  public int maxSlots() {
    return shapes.stream().mapToInt(Shape::slots).max().orElse(1);
  }

  /** True when some shape writes a key twice (an intermediate value can then exist). */
  public boolean hasDoubleWrite() {
    for (final Shape s : shapes) {
      final int[] writes = new int[3];
      for (final Shape.Step st : s.steps()) {
        if (st.write() && ++writes[st.slot()] == 2) {
          return true;
        }
      }
    }
    return false;
  }

  /** The canonical spelling. */
  public String spec() {
    return String.join(",", shapes.stream().map(Shape::name).toList()) + (pairedKeys ? " (paired keys)" : "");
  }
}
