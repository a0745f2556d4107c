package io.isowatch.core.gen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The form of one mini-transaction (MTC Definition 8: one or two reads, at most two writes, each
 * write preceded by a read of its key): a sequence of reads {@code R1}/{@code R2} and writes
 * {@code W1}/{@code W2} over one or two key slots, where {@code Wi} writes the key {@code Ri} read;
 * or {@code CAS}, a lightweight transaction (a single-key compare-and-set, which only the producer
 * agent runs). One shape family for the generator ({@code isowatch generate}) and the agent
 * ({@code isowatch agent}).
 *
 * <p>Rules checked by {@link #parse}: at most four operations, one or two reads of distinct slots,
 * at most two writes, every write preceded by the read of its slot, slots numbered from 1.
 * Examples: {@code R1}, {@code R1R2}, {@code R1W1}, {@code R1W1W1} (writes its key twice: lets an
 * intermediate value exist), {@code R1R2W1} (write-skew half), {@code R1R2W1W2}, {@code R1W1R2W2}.
 *
 * @param name the canonical spelling, e.g. {@code R1R2W2}
 * @param steps the operations in program order; empty for {@code CAS}
 * @param cas true for the compare-and-set shape
 */
public record MtShape(String name, List<Step> steps, boolean cas) {
  private static final Pattern TOKEN = Pattern.compile("([RW])([12])");

  /** {@code r(x)}. */
  public static final MtShape R1 = parse("R1");
  /** {@code r(x) r(y)}. */
  public static final MtShape R1R2 = parse("R1R2");
  /** {@code r(x) w(x)}: a read-modify-write of one key. */
  public static final MtShape R1W1 = parse("R1W1");
  /** {@code r(x) r(y) w(y)}. */
  public static final MtShape R1R2W2 = parse("R1R2W2");
  /** {@code r(x) r(y) w(x) w(y)}. */
  public static final MtShape R1R2W1W2 = parse("R1R2W1W2");
  /** {@code r(x) w(x) r(y) w(y)}. */
  public static final MtShape R1W1R2W2 = parse("R1W1R2W2");

  /**
   * Named lists of shapes, accepted by {@link #parseList} alone or mixed with shapes: {@code
   * paper} (the default of both commands), {@code full} ({@code paper} plus {@code R1W1W1}, needed
   * for intermediate reads, and {@code R1R2W1}), {@code cas}.
   */
  public static final Map<String, List<MtShape>> PRESETS = presets();

  public MtShape {
    steps = List.copyOf(steps);
  }

  /** One operation of a shape: a read or write of slot 1 or 2. */
  public record Step(boolean write, int slot) {}

  /** The shapes of MTC's MT workloads: R1, R1R2, R1W1, R1R2W2, R1R2W1W2, R1W1R2W2. */
  public static List<MtShape> paper() {
    return PRESETS.get("paper");
  }

  /** Reads one shape, e.g. {@code R1R2W2} (any case) or {@code CAS}. */
  public static MtShape parse(final String text) {
    final String s = text.trim().toUpperCase(Locale.ROOT);
    if (s.equals("CAS")) {
      return new MtShape("CAS", List.of(), true);
    }
    final Matcher m = TOKEN.matcher(s);
    final List<Step> steps = new ArrayList<>();
    int at = 0;
    while (at < s.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("bad shape '" + text
            + "': expected a sequence of R1, R2, W1, W2 (e.g. R1R2W2) or CAS");
      }
      steps.add(new Step(m.group(1).equals("W"), Integer.parseInt(m.group(2))));
      at = m.end();
    }
    validate(text, steps);
    return new MtShape(s, steps, false);
  }

  /**
   * Reads a comma-separated list of shapes and {@link #PRESETS} names, e.g. {@code paper,R1W1W1},
   * without repeats, in first-mention order.
   */
  public static List<MtShape> parseList(final String text) {
    final Map<String, MtShape> distinct = new LinkedHashMap<>();
    for (final String raw : text.split(",")) {
      final String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      final List<MtShape> preset = PRESETS.get(item.toLowerCase(Locale.ROOT));
      for (final MtShape s : preset != null ? preset : List.of(parse(item))) {
        distinct.putIfAbsent(s.name(), s);
      }
    }
    if (distinct.isEmpty()) {
      throw new IllegalArgumentException("no shape in '" + text + "'");
    }
    return List.copyOf(distinct.values());
  }

  private static void validate(final String text, final List<Step> steps) {
    if (steps.isEmpty() || steps.size() > 4) {
      throw new IllegalArgumentException("bad shape '" + text + "': a mini-transaction has 1 to 4 operations");
    }
    final boolean[] read = new boolean[3];
    int writes = 0;
    for (final Step st : steps) {
      if (st.write()) {
        writes++;
        if (!read[st.slot()]) {
          throw new IllegalArgumentException("bad shape '" + text + "': W" + st.slot()
              + " must be preceded by R" + st.slot() + " (every write reads its key first)");
        }
      } else if (read[st.slot()]) {
        throw new IllegalArgumentException("bad shape '" + text + "': R" + st.slot() + " twice (each read reads its own key)");
      } else {
        read[st.slot()] = true;
      }
    }
    if (writes > 2) {
      throw new IllegalArgumentException("bad shape '" + text + "': at most two reads and two writes");
    }
    if (read[2] && !read[1]) {
      throw new IllegalArgumentException("bad shape '" + text + "': slots are numbered from 1");
    }
  }

  /** How many distinct keys the shape touches (1 or 2). */
  public int keyCount() {
    return steps.stream().anyMatch(st -> st.slot() == 2) ? 2 : 1;
  }

  /** True when the shape never writes. */
  public boolean isReadOnly() {
    return !cas && steps.stream().noneMatch(Step::write);
  }

  /** True when the shape writes one key twice (an intermediate value can then exist). */
  public boolean writesAKeyTwice() {
    final int[] writes = new int[3];
    return steps.stream().anyMatch(st -> st.write() && ++writes[st.slot()] == 2);
  }

  @Override
  public String toString() {
    return name;
  }

  private static Map<String, List<MtShape>> presets() {
    final List<MtShape> paper = List.of(R1, R1R2, R1W1, R1R2W2, R1R2W1W2, R1W1R2W2);
    return Map.of(
        "paper", paper,
        "full", List.of(R1, R1R2, R1W1, parse("R1W1W1"), parse("R1R2W1"), R1R2W2, R1R2W1W2, R1W1R2W2),
        "cas", List.of(parse("CAS")));
  }
}
