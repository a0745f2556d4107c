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

  /**
   * Counts {@code n} more instances of the (kind, key) finding added before, with no example: what
   * {@code n} further {@link #add} calls without a transaction would do.
   *
   * @throws IllegalStateException when no such finding was added
   */
  public void count(final FindingKind kind, final String key, final long n) {
    final Acc acc = byKindAndKey.get(kind + "\u0000" + Objects.toString(key, ""));
    if (acc == null) {
      throw new IllegalStateException("no " + kind + " finding for key " + key + " to count more of");
    }
    acc.count += n;
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

  /**
   * One aggregate as held, for a checkpoint of an engine (io.isowatch.core.online): {@link
   * #toList()} renders it, {@link #of} holds it again.
   *
   * @param kind what was found
   * @param key the key of its bucket, or null (no key, or beyond the keys listed per kind)
   * @param firstMessage the message of its first instance
   * @param levels levels it makes undecidable
   * @param count instances
   * @param txns example transaction ids (at most a few)
   * @param lines example source lines
   */
  public record Entry(FindingKind kind, String key, String firstMessage, Set<Level> levels, long count,
      List<String> txns, List<Integer> lines) {
    public Entry {
      java.util.Objects.requireNonNull(kind, "kind");
      java.util.Objects.requireNonNull(firstMessage, "firstMessage");
      final EnumSet<Level> copy = EnumSet.noneOf(Level.class);
      copy.addAll(levels);
      levels = java.util.Collections.unmodifiableSet(copy);
      txns = List.copyOf(txns);
      lines = List.copyOf(lines);
    }
  }

  /** Every aggregate, in the order findings are listed. */
  public List<Entry> entries() {
    final List<Entry> out = new ArrayList<>(byKindAndKey.size());
    for (final Acc a : byKindAndKey.values()) {
      out.add(new Entry(a.kind, a.key, a.firstMessage, a.levels, a.count, a.txns, a.lines));
    }
    return out;
  }

  /**
   * Findings holding exactly these aggregates, in this order: {@code of(f.entries())} lists and
   * aggregates as {@code f} does. Throws IllegalArgumentException if two share a (kind, key).
   */
  public static Findings of(final List<Entry> entries) {
    final Findings f = new Findings();
    for (final Entry e : entries) {
      final EnumSet<Level> levels = EnumSet.noneOf(Level.class);
      levels.addAll(e.levels());
      final Acc a = new Acc(e.kind(), e.key(), e.firstMessage(), levels);
      a.count = e.count();
      a.txns.addAll(e.txns());
      a.lines.addAll(e.lines());
      if (f.byKindAndKey.put(e.kind() + "\u0000" + Objects.toString(e.key(), ""), a) != null) {
        throw new IllegalArgumentException("two findings of kind " + e.kind() + " and key " + e.key());
      }
    }
    return f;
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

  /** The levels a finding of this kind makes undecidable unless a violation is certain. */
  public static Set<Level> defaultLevels(final FindingKind kind) {
    return switch (kind) {
      case NON_UNIQUE_WRITE -> EnumSet.allOf(Level.class);
      case BLIND_WRITE -> EnumSet.copyOf(Level.NEED_VERSION_ORDER);
      case MISSING_TIMESTAMPS -> EnumSet.of(Level.SSER);
      default -> EnumSet.noneOf(Level.class);
    };
  }
}
