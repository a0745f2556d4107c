package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.oracle.ListAppendHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every claim an explanation of a list-append history makes about what a transaction read, and who
 * wrote what it read, holds in the history (issue 14, wording item 1): the translation reads the
 * version an append builds on, and the engine's register words ("T2 read x=6, which T4 wrote") must
 * never reach the text as a read the history does not have. Checked on random list-append histories
 * (stale snapshots, aborts whose appends are seen, indeterminate transactions, corrupted reads) at
 * every level and at the default levels; {@code -Dseed} and {@code -Dhistories} vary it.
 */
class ListAppendReadClaimsPropertyTest {
  /** "X read k=L" or "X (judged at PC) read k=L", L a list, a number or null. */
  private static final Pattern READ = Pattern.compile(
      "(?<![\\w'])([A-Za-z][\\w-]*)(?: \\((?:judged at|declared) [A-Z0-9]+\\))? read ([^\\s=,;:()]+)=(\\[[-0-9,]*\\]|-?\\d+|null)");
  /** What may follow a read claim to name the writer of what was read. */
  private static final Pattern WRITER = Pattern.compile(
      "^(?:(?:, where [^;]*; without (?:it|them), it shows \\S+?)?, which ends in (-?\\d+), appended by ([\\w-]+)|, which ([\\w-]+) wrote| from ([\\w-]+)|, written by ([\\w-]+)"
          + "|, whose last element ([\\w-]+) appended)");
  /** The weak levels' list premise (ListWeakLevels): "W's appends to k belong in k=L, before A's v". */
  private static final Pattern BELONG = Pattern.compile(
      "([\\w-]+)'s appends to ([^\\s=,;:()]+) belong in ([^\\s=,;:()]+)=(\\[[-0-9,]*\\])(?:, before ([\\w-]+)'s (-?\\d+))?");
  /** "W (how it was seen), which also appended to k". */
  private static final Pattern ALSO_APPENDED = Pattern.compile(
      "(?<![\\w'])([A-Za-z][\\w-]*)(?: \\([^()]*\\))?, which also appended to ([^\\s,;:.()]+)");
  /** The engine's register phrase for a writer, whatever precedes it. */
  private static final Pattern REGISTER_WRITER = Pattern.compile("\\bwhich [\\w-]+ wrote\\b");
  private static final Pattern LET = Pattern.compile("^  (\\S+) = (?:(\\S+) )?\\[");

  @Test
  void shouldMakeOnlyReadAndWriterClaimsTheHistoryHoldsOnRandomListAppendHistories() {
    // Given: random list-append histories (appends and list reads only)
    final Random random = new Random(Long.getLong("seed", 37));
    final int histories = Integer.getInteger("histories", 5000);
    int claims = 0;
    int writers = 0;
    int premises = 0;
    for (int n = 0; n < histories; n++) {
      final History h = ListAppendHistories.random(random);
      final Map<String, Transaction> byId = new HashMap<>();
      h.transactions().forEach(t -> byId.put(t.id(), t));
      for (final CheckOptions options : List.of(CheckOptions.defaults(),
          CheckOptions.defaults().withLevels(EnumSet.allOf(Level.class)))) {
        // When
        for (final Anomaly a : WholeHistoryCheck.check(h, options).anomalies()) {
          if (a.explanation() == null) {
            continue;
          }
          // Then
          final int[] counted = assertClaimsHold(a.explanation(), byId, () -> HistoryDsl.format(h));
          claims += counted[0];
          writers += counted[1];
          premises += counted[2];
        }
      }
    }
    // And: the property was exercised
    assertTrue(claims > 2000 && writers > 500 && premises > 50, claims + " read claims, " + writers + " writer claims, "
        + premises + " premise claims");
  }

  /**
   * Asserts every read claim of the explanation names a read of the history (that key, that list)
   * and every writer it names appended the last element of the version named; returns the counts.
   */
  static int[] assertClaimsHold(final String explanation, final Map<String, Transaction> byId,
      final java.util.function.Supplier<String> history) {
    final Map<String, String> alias = new HashMap<>();
    final List<String> lines = new ArrayList<>();
    for (final String line : explanation.split("\n")) {
      final Matcher let = LET.matcher(line);
      if (let.find()) {
        alias.put(let.group(1), let.group(2) != null ? let.group(2) : let.group(1));
      } else {
        lines.add(line);
      }
    }
    int claims = 0;
    int writers = 0;
    for (final String line : lines) {
      final String context = line + "\n" + explanation + "\n" + history.get();
      assertTrue(!REGISTER_WRITER.matcher(line).find(), () -> "register words for a writer: " + context);
      final Matcher m = READ.matcher(line);
      while (m.find()) {
        final Transaction t = byId.get(alias.getOrDefault(m.group(1), m.group(1)));
        if (t == null) {
          continue; // "init", or a noun ("a transaction read ..."): no transaction of the history
        }
        claims++;
        final String key = m.group(2);
        final String value = m.group(3);
        assertTrue(value.startsWith("["), () -> t.id() + " read a register value: " + context);
        final Op read = t.ops().stream().filter(op -> op.isListRead() && op.key().equals(key) && shown(op).equals(value))
            .findFirst().orElse(null);
        assertTrue(read != null, () -> t.id() + " has no read of " + key + "=" + value + ": " + context);
        final Matcher w = WRITER.matcher(line.substring(m.end()));
        if (w.find()) {
          writers++;
          final String named = firstNonNull(w.group(2), w.group(3), w.group(4), w.group(5), w.group(6));
          final String writer = alias.getOrDefault(named, named);
          final Long last = w.group(1) != null ? Long.valueOf(w.group(1)) : lastOf(read);
          final Transaction a = byId.get(writer);
          assertTrue(a != null && last != null && read.elements().contains(last)
              && a.ops().stream().anyMatch(op -> op.isAppend() && op.key().equals(key) && last.equals(op.value())),
              () -> writer + " did not append " + last + " to " + key + ": " + context);
        }
      }
    }
    int premises = 0;
    for (final String line : lines) {
      final String context = line + "\n" + explanation + "\n" + history.get();
      final Matcher also = ALSO_APPENDED.matcher(line);
      while (also.find()) {
        final Transaction a = byId.get(alias.getOrDefault(also.group(1), also.group(1)));
        final String key = also.group(2);
        assertTrue(a != null && a.ops().stream().anyMatch(op -> op.isAppend() && op.key().equals(key)),
            () -> also.group(1) + " did not append to " + key + ": " + context);
      }
      final Matcher b = BELONG.matcher(line);
      while (b.find()) {
        premises++;
        final Transaction seen = byId.get(alias.getOrDefault(b.group(1), b.group(1)));
        final String key = b.group(2);
        final List<Long> list = parse(b.group(4));
        assertTrue(key.equals(b.group(3)) && seen != null, () -> "a premise about another key or no transaction: " + context);
        // The appends said to belong in the list are not in it: that is the contradiction.
        assertTrue(seen.ops().stream().anyMatch(op -> op.isAppend() && op.key().equals(key))
            && seen.ops().stream().noneMatch(op -> op.isAppend() && op.key().equals(key) && list.contains(op.value())),
            () -> b.group(1) + " did not append to " + key + " or its append is in " + b.group(4) + ": " + context);
        if (b.group(5) != null) {
          final Transaction last = byId.get(alias.getOrDefault(b.group(5), b.group(5)));
          final Long v = Long.valueOf(b.group(6));
          assertTrue(last != null && !list.isEmpty() && v.equals(list.get(list.size() - 1))
              && last.ops().stream().anyMatch(op -> op.isAppend() && op.key().equals(key) && v.equals(op.value())),
              () -> b.group(5) + " did not append " + v + ", the last element of " + b.group(4) + ": " + context);
        } else {
          assertTrue(list.isEmpty(), () -> "no last element named for " + b.group(4) + ": " + context);
        }
      }
    }
    return new int[] {claims, writers, premises};
  }

  private static List<Long> parse(final String list) {
    final List<Long> out = new ArrayList<>();
    for (final String e : list.substring(1, list.length() - 1).split(",")) {
      if (!e.isEmpty()) {
        out.add(Long.valueOf(e));
      }
    }
    return out;
  }

  private static String firstNonNull(final String... s) {
    for (final String x : s) {
      if (x != null) {
        return x;
      }
    }
    return null;
  }

  private static Long lastOf(final Op read) {
    return read.elements().isEmpty() ? null : read.elements().get(read.elements().size() - 1);
  }

  private static String shown(final Op op) {
    return op.elements().toString().replace(" ", "");
  }
}
