package io.isowatch.agent.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The form of one mini-transaction (MTC Definition 8): a sequence of reads {@code R1}/{@code R2}
 * and writes {@code W1}/{@code W2} over one or two key slots, where {@code Wi} writes the key
 * {@code Ri} read; or {@code CAS}, a lightweight transaction (a single-key compare-and-set).
 *
 * <p>Rules checked by {@link #parse}: at most four operations, one or two reads, at most two
 * writes, every write preceded by a read of its slot, slots numbered from 1. Examples: {@code R1},
 * {@code R1R2}, {@code R1W1}, {@code R1W1W1} (writes its key twice: lets an intermediate value
 * exist), {@code R1R2W1} (write-skew half), {@code R1R2W1W2}, {@code R1W1R2W2}.
 *
 * @param name the canonical spelling, e.g. {@code R1R2W2}
 * @param steps the operations in program order; empty for {@code CAS}
 * @param cas true for the compare-and-set shape
 */
public record Shape(String name, List<Step> steps, boolean cas) {
  private static final Pattern TOKEN = Pattern.compile("([RW])([12])");

  public Shape {
    steps = List.copyOf(steps);
  }

  /** One operation of a shape: a read or write of slot 1 or 2. */
  public record Step(boolean write, int slot) {}

  public static Shape parse(final String text) {
    final String s = text.trim().toUpperCase(Locale.ROOT);
    if (s.equals("CAS")) {
      return new Shape("CAS", List.of(), true);
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
    return new Shape(s, steps, false);
  }

  private static void validate(final String text, final List<Step> steps) {
    if (steps.isEmpty() || steps.size() > 4) {
      throw new IllegalArgumentException("bad shape '" + text + "': a mini-transaction has 1 to 4 operations");
    }
    final boolean[] read = new boolean[3];
    int reads = 0;
    int writes = 0;
    for (final Step st : steps) {
      if (st.write()) {
        writes++;
        if (!read[st.slot()]) {
          throw new IllegalArgumentException("bad shape '" + text + "': W" + st.slot()
              + " must be preceded by R" + st.slot() + " (every write reads its key first)");
        }
      } else {
        reads++;
        read[st.slot()] = true;
      }
    }
    if (reads > 2 || writes > 2) {
      throw new IllegalArgumentException("bad shape '" + text + "': at most two reads and two writes");
    }
    if (read[2] && !read[1]) {
      throw new IllegalArgumentException("bad shape '" + text + "': slots are numbered from 1");
    }
  }

  /** Number of distinct keys the shape needs (1 or 2). */
  public int slots() {
    return steps.stream().anyMatch(st -> st.slot() == 2) ? 2 : 1;
  }

  /** True when the shape never writes. */
  public boolean readOnly() {
    return !cas && steps.stream().noneMatch(Step::write);
  }

  @Override
  public String toString() {
    return name;
  }
}
