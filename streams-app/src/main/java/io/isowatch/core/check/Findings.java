package io.isowatch.core.check;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Collects input findings, aggregated per (kind, key): a history with a million blind writes gets
 * one finding per key with a count and a few examples, not a million lines. Findings are listed in
 * the order their (kind, key) was first seen. Shared by both engines.
 */
public final class Findings {
  private static final int EXAMPLES = 5;
  /** Distinct keys reported separately per kind; further keys share one finding with key null. */
  private static final int KEYS_PER_KIND = 20;

  private final Map<String, Acc> byKindAndKey = new LinkedHashMap<>();

  private static final class Acc {
    final FindingKind kind;
    final String key;
    final String firstMessage;
    final Set<Level> levels;
    long count;
    final List<String> txns = new ArrayList<>();
    final List<Integer> lines = new ArrayList<>();

    Acc(final FindingKind kind, final String key, final String firstMessage, final Set<Level> levels) {
      this.kind = kind;
      this.key = key;
      this.firstMessage = firstMessage;
      this.levels = levels;
    }
  }

  public void add(final FindingKind kind, final String key, final String txn, final int line, final String message) {
    add(kind, key, txn, line, message, defaultLevels(kind));
  }

  public void add(
      final FindingKind kind,
      final String key,
      final String txn,
      final int line,
      final String message,
      final Set<Level> levels) {
    String slotKey = key;
    if (key != null && !byKindAndKey.containsKey(kind + "\u0000" + key) && keyedCount(kind) >= KEYS_PER_KIND) {
      slotKey = null;
    }
    final String bucketKey = slotKey;
    final Acc acc = byKindAndKey.computeIfAbsent(kind + "\u0000" + Objects.toString(bucketKey, ""),
        k -> new Acc(kind, bucketKey, bucketKey == null && key != null
            ? message + " (and more keys beyond the first " + KEYS_PER_KIND + ")" : message, levels));
    acc.count++;
    if (acc.txns.size() < EXAMPLES && txn != null) {
      acc.txns.add(txn);
      if (line > 0) {
        acc.lines.add(line);
      }
    }
  }

  private long keyedCount(final FindingKind kind) {
    return byKindAndKey.values().stream().filter(a -> a.kind == kind && a.key != null).count();
  }

  public boolean has(final FindingKind kind) {
    return byKindAndKey.values().stream().anyMatch(a -> a.kind == kind);
  }

  /** Levels made undecidable by some finding, each with the first reason found. */
  public Map<Level, String> undecidable() {
    final Map<Level, String> reasons = new LinkedHashMap<>();
    for (final Acc a : byKindAndKey.values()) {
      if (a.kind.severity() == FindingKind.Severity.UNDECIDABLE) {
        for (final Level l : a.levels) {
          reasons.putIfAbsent(l, a.kind + ": " + a.firstMessage);
        }
      }
    }
    return reasons;
  }

  /** An independent copy, e.g. to add end-of-stream findings to a snapshot. */
  public Findings copy() {
    final Findings c = new Findings();
    byKindAndKey.forEach((k, a) -> {
      final Acc b = new Acc(a.kind, a.key, a.firstMessage, a.levels);
      b.count = a.count;
      b.txns.addAll(a.txns);
      b.lines.addAll(a.lines);
      c.byKindAndKey.put(k, b);
    });
    return c;
  }

  public List<Finding> toList() {
    final List<Finding> out = new ArrayList<>();
    for (final Acc a : byKindAndKey.values()) {
      final String message = a.count == 1 ? a.firstMessage
          : a.firstMessage + " (" + a.count + " instances; first shown)";
      out.add(new Finding(a.kind, a.levels, a.key, a.count, a.txns, a.lines, message));
    }
    return out;
  }

  private static Set<Level> defaultLevels(final FindingKind kind) {
    return switch (kind) {
      case NON_UNIQUE_WRITE, BLIND_WRITE -> EnumSet.allOf(Level.class);
      case MISSING_TIMESTAMPS -> EnumSet.of(Level.SSER);
      default -> EnumSet.noneOf(Level.class);
    };
  }
}
