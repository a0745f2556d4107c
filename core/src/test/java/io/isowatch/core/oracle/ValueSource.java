package io.isowatch.core.oracle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Hands out the values written: unique per history and never the initial value, except that with
 * probability {@code duplicateP} a write reuses a value another transaction already wrote to the
 * same key (a non-unique write).
 */
final class ValueSource {
  /** Values at or above this are never written, so reads of them are out of thin air. */
  static final long THIN_AIR_BASE = 9_000L;

  private final Random rnd;
  private final Long initial;
  private final double duplicateP;
  private final Map<String, List<Written>> written = new LinkedHashMap<>();
  private long next = 1;

  private record Written(long value, String writer) {}

  ValueSource(final Random rnd, final Long initial, final double duplicateP) {
    this.rnd = rnd;
    this.initial = initial;
    this.duplicateP = duplicateP;
  }

  long next(final String key, final String writer) {
    final List<Written> seen = written.computeIfAbsent(key, k -> new ArrayList<>());
    if (duplicateP > 0 && rnd.nextDouble() < duplicateP) {
      final List<Written> others = seen.stream().filter(w -> !w.writer().equals(writer)).toList();
      if (!others.isEmpty()) {
        return others.get(rnd.nextInt(others.size())).value();
      }
    }
    long v = next++;
    if (Objects.equals(v, initial)) {
      v = next++;
    }
    seen.add(new Written(v, writer));
    return v;
  }

  long thinAir() {
    return THIN_AIR_BASE + rnd.nextInt(1000);
  }
}
