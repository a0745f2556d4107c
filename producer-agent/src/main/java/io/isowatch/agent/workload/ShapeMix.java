package io.isowatch.agent.workload;

import io.isowatch.core.gen.MtShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shapes a workload draws from ({@link MtShape}, the same family and spelling as {@code
 * isowatch generate --shapes}), and how keys are assigned to their slots.
 *
 * <p>Presets (accepted by {@link #parse} alone or mixed with explicit shapes): those of {@link
 * MtShape#PRESETS} ({@code paper}, the default; {@code full}; {@code cas}) and {@code writeskew}:
 * R1R2W1 and R1R2W2 on paired keys (slot 1 = {@code k2p}, slot 2 = {@code k2p+1}, the pair p drawn
 * from the key distribution over K/2 pairs), so that two transactions on the same pair read both
 * keys and each write a different one: the pattern snapshot isolation lets through (WriteSkew).
 *
 * @param shapes the distinct shapes, drawn uniformly (or by read-only ratio)
 * @param pairedKeys true when two-slot shapes use a fixed key pair (write-skew preset)
 */
public record ShapeMix(List<MtShape> shapes, boolean pairedKeys) {
  private static final String WRITE_SKEW = "writeskew";

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
    final Map<String, MtShape> distinct = new LinkedHashMap<>();
    boolean paired = false;
    for (final String raw : text.split(",")) {
      final String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      final boolean writeSkew = item.toLowerCase(Locale.ROOT).equals(WRITE_SKEW);
      paired |= writeSkew;
      for (final MtShape s : MtShape.parseList(writeSkew ? "R1R2W1,R1R2W2" : item)) {
        distinct.putIfAbsent(s.name(), s);
      }
    }
    return new ShapeMix(new ArrayList<>(distinct.values()), paired);
  }

  /** Shapes that never write. */
  public List<MtShape> readOnlyShapes() {
    return shapes.stream().filter(MtShape::isReadOnly).toList();
  }

  /** Shapes that write (including CAS). */
  public List<MtShape> writingShapes() {
    return shapes.stream().filter(s -> !s.isReadOnly()).toList();
  }

  /** The largest number of distinct keys any shape needs. */
  public int maxSlots() {
    return shapes.stream().mapToInt(MtShape::keyCount).max().orElse(1);
  }

  /** True when some shape writes a key twice (an intermediate value can then exist). */
  public boolean hasDoubleWrite() {
    return shapes.stream().anyMatch(MtShape::writesAKeyTwice);
  }

  /** The canonical spelling. */
  public String spec() {
    return String.join(",", shapes.stream().map(MtShape::name).toList()) + (pairedKeys ? " (paired keys)" : "");
  }
}
