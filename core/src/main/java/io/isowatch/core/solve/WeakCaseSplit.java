package io.isowatch.core.solve;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.check.WeakLevelCheck;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 14, item 3: decides PL2, RC, RA and CC on a history where a value read is written by more
 * than one transaction, by cases. These levels need no version order, only which write each read
 * returned (Biswas-Enea), and that is what a value written twice leaves open: each external read
 * may have read from any counted transaction whose last write of the key is the value (or from the
 * initial version), the brute-force oracle's semantics (repeated reads of one value of a key in one
 * transaction share their writer).
 *
 * <p>Each way to attribute those reads is a history with one writer per read: the values of the
 * counted transactions are renumbered so that each write is unique and each read returns its
 * chosen writer's renumbered value, and {@link WeakLevelCheck} decides it. A level holds when some
 * case satisfies it, is violated when every case violates it (the counterexample gives each case's
 * cycle, each case stated as an assumption, with the history's own values), and stays UNKNOWN past
 * {@link VersionOrderSearch#MAX_CASES} cases, past the budget, or when a case is undecided.
 */
final class WeakCaseSplit {
  /** The levels decided here. */
  static final Set<Level> LEVELS = EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC);
  /** Renumbered values start here (or above every value of the history), far from times and lines. */
  private static final long FRESH_BASE = 4_000_000_000_000_000_000L;
  private static final Pattern NUMBER = Pattern.compile("-?\\d+");

  /** How the reason begins when a transaction's own reads keep the cases from being checked. */
  static final String NOT_SPLIT = "the weak levels were not checked by cases of writers: ";

  private WeakCaseSplit() {}

  /**
   * Why {@code t}'s reads are ones the renumbered cases would not judge, or null: a read after an
   * own write of the key that is not the latest own write (Int), or two reads of a key before any
   * own write that return different values (a non-repeatable read, whose RC premise the weak check
   * leaves to the engine's read anomalies).
   */
  private static String readsNotJudged(final Transaction t) {
    final Map<String, Long> own = new HashMap<>();
    final Map<String, Long> firstRead = new HashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        own.put(op.key(), op.value());
      } else if (op.isRead() && own.containsKey(op.key())) {
        if (!Objects.equals(own.get(op.key()), op.value())) {
          return "transaction " + t.id() + " read " + op.key() + "=" + op.value() + " after writing " + op.key() + "="
              + own.get(op.key());
        }
      } else if (op.isRead()) {
        if (firstRead.containsKey(op.key()) && !Objects.equals(firstRead.get(op.key()), op.value())) {
          return "transaction " + t.id() + " read " + op.key() + "=" + firstRead.get(op.key()) + " and then "
              + op.key() + "=" + op.value() + " (a non-repeatable read)";
        }
        firstRead.putIfAbsent(op.key(), op.value());
      }
    }
    return null;
  }

  /** Verdicts of the levels decided, the anomaly of each violated one, and why an undecided one is. */
  record Outcome(Map<Level, Verdict> verdicts, Map<Level, Anomaly> anomalies, String reason) {}

  /** A group of external reads of one value of one key by one transaction, and its possible writers (-1: initial). */
  private record ReadGroup(int reader, String key, Long value, int[] candidates) {}

  static Outcome decide(final History history, final Long initial, final Set<Level> open, final Set<Level> requested,
      final long deadline) {
    final Set<Level> levels = EnumSet.noneOf(Level.class);
    open.stream().filter(LEVELS::contains).forEach(levels::add);
    if (levels.isEmpty()) {
      return new Outcome(Map.of(), Map.of(), null);
    }
    final List<Transaction> txns = counted(history, initial);
    for (final Transaction t : txns) {
      final String why = readsNotJudged(t);
      if (why != null) {
        return unknown(levels, NOT_SPLIT + why + "; the engine judges such reads only where values are unique");
      }
    }
    final Map<VersionOrderProblem.KeyValue, List<Integer>> writers = new HashMap<>();
    long max = initial == null ? 0 : initial;
    int writeOps = 0;
    for (int i = 0; i < txns.size(); i++) {
      for (final Map.Entry<String, Long> w : VersionOrderProblem.lastWrites(txns.get(i)).entrySet()) {
        writers.computeIfAbsent(new VersionOrderProblem.KeyValue(w.getKey(), w.getValue()), x -> new ArrayList<>())
            .add(i);
      }
      for (final Op op : txns.get(i).ops()) {
        if (op.value() != null) {
          max = Math.max(max, op.value());
        }
        writeOps += op.isWrite() || op.isRead() ? 1 : 0;
      }
    }
    final long base = Math.max(FRESH_BASE, max + 1);
    if (base > Long.MAX_VALUE - writeOps - 1) {
      return unknown(levels, "values near the largest 64-bit number leave no room to renumber writes");
    }
    final List<ReadGroup> groups = new ArrayList<>();
    final Map<List<Object>, Integer> groupOf = new HashMap<>();
    long total = 1;
    for (int i = 0; i < txns.size(); i++) {
      for (final Op op : externalReads(txns.get(i))) {
        final List<Object> id = java.util.Arrays.asList(i, op.key(), op.value());
        if (groupOf.containsKey(id)) {
          continue;
        }
        final List<Integer> c = new ArrayList<>();
        if (Objects.equals(op.value(), initial)) {
          c.add(-1);
        }
        for (final int w : writers.getOrDefault(new VersionOrderProblem.KeyValue(op.key(), op.value()), List.of())) {
          if (w != i) {
            c.add(w);
          }
        }
        if (c.isEmpty()) {
          return unknown(levels, "transaction " + txns.get(i).id() + " read " + op.key() + "=" + op.value()
              + " again (a non-repeatable read), and no transaction that counts wrote that value last");
        }
        groupOf.put(id, groups.size());
        groups.add(new ReadGroup(i, op.key(), op.value(), c.stream().mapToInt(Integer::intValue).toArray()));
        total = Math.min(Long.MAX_VALUE / 64, total * c.size());
      }
    }
    if (total > VersionOrderSearch.MAX_CASES) {
      return unknown(levels, VersionOrderSearch.CASES_GUARD + "reads of values written more than once can be attributed "
          + "in " + (total >= Long.MAX_VALUE / 64 ? "too many" : String.valueOf(total)) + " ways, more than the "
          + VersionOrderSearch.MAX_CASES + " the weak levels are checked in one by one; no violation is certain");
    }
    final Renumbered fresh = new Renumbered(txns, base);
    final List<Integer> sessions = sessionNumbers(txns);
    final int[] digit = new int[groups.size()];
    final Map<Level, List<String>> caseTexts = new EnumMap<>(Level.class);
    final Map<Level, Anomaly> first = new EnumMap<>(Level.class);
    final Map<Level, Set<Level>> violates = new EnumMap<>(Level.class);
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Set<Level> undecided = EnumSet.noneOf(Level.class);
    String reason = null;
    for (long c = 0; c < total; c++) {
      if (System.nanoTime() > deadline) {
        return unknown(levels, "the check of the weak levels by cases of writers ran out of its time budget after "
            + c + " of " + total + " cases (raise --solver-budget); no violation is certain");
      }
      final int[] chosen = new int[groups.size()];
      final List<String> said = new ArrayList<>();
      for (int j = 0; j < digit.length; j++) {
        final ReadGroup g = groups.get(j);
        chosen[j] = g.candidates()[digit[j]];
        if (g.candidates().length > 1) {
          said.add(txns.get(g.reader()).id() + " read " + g.key() + "=" + g.value() + " from "
              + (chosen[j] < 0 ? "the initial version" : txns.get(chosen[j]).id()));
        }
      }
      for (int j = 0; j < digit.length; j++) {
        if (++digit[j] < groups.get(j).candidates().length) {
          break;
        }
        digit[j] = 0;
      }
      final List<WeakLevelCheck.Entry> entries = new ArrayList<>(txns.size());
      for (int i = 0; i < txns.size(); i++) {
        entries.add(new WeakLevelCheck.Entry(fresh.of(i, initial, groupOf, chosen), sessions.get(i), i));
      }
      final WeakLevelCheck.Result r = new WeakLevelCheck(entries, initial, false, true).decide(levels, requested);
      for (final Level level : levels) {
        if (verdicts.get(level) == Verdict.SATISFIED) {
          continue;
        }
        final Verdict v = r.verdicts().get(level);
        if (v == Verdict.SATISFIED) {
          verdicts.put(level, Verdict.SATISFIED);
        } else if (v == Verdict.VIOLATED) {
          final Anomaly a = fresh.back(r.witnesses().get(level), history);
          first.putIfAbsent(level, a);
          violates.merge(level, EnumSet.copyOf(a.violates()), (x, y) -> {
            x.retainAll(y);
            return x;
          });
          caseTexts.computeIfAbsent(level, l -> new ArrayList<>()).add((said.isEmpty() ? "" : "If "
              + String.join(" and ", said) + ":\n") + a.explanation());
        } else {
          undecided.add(level);
          reason = reason != null ? reason : (said.isEmpty() ? "" : "in the case where " + String.join(", ", said) + ": ")
              + r.unknownReason();
        }
      }
      if (levels.stream().allMatch(l -> verdicts.get(l) == Verdict.SATISFIED)) {
        break;
      }
    }
    final Map<Level, Anomaly> anomalies = new EnumMap<>(Level.class);
    for (final Level level : levels) {
      if (verdicts.get(level) == Verdict.SATISFIED) {
        continue;
      }
      if (undecided.contains(level)) {
        verdicts.put(level, Verdict.UNKNOWN);
        continue;
      }
      verdicts.put(level, Verdict.VIOLATED);
      anomalies.put(level, combined(level, first.get(level), violates.get(level), caseTexts.get(level), total));
    }
    return new Outcome(verdicts, anomalies, reason == null ? null : VersionOrderSearch.CASES_UNDECIDED
        + "each read of it was checked with each of its candidate writers; no case satisfies the level so far, and "
        + "one is undecided " + reason);
  }

  private static Anomaly combined(final Level level, final Anomaly first, final Set<Level> violates,
      final List<String> texts, final long total) {
    final StringBuilder text = new StringBuilder();
    if (total > 1) {
      text.append("A value read here is written by more than one transaction, so which of them a read took is not ")
          .append("known: each of the ").append(total).append(" way(s) to attribute such reads was checked, and none ")
          .append("satisfies ").append(level).append(". Whichever writer was read from, the history is not ")
          .append(level).append(". The cases are assumptions, not a claim about which writer the database used.\n\n");
    }
    final int shown = Math.min(BlindWriteDecision.SHOWN_CYCLES, texts.size());
    text.append(String.join("\n\n", texts.subList(0, shown)));
    if (shown < texts.size()) {
      text.append("\n\n(").append(texts.size() - shown).append(" more cases are not shown.)");
    }
    return new Anomaly(first.type(), first.name(), violates, first.transactions(), first.cycle(), text.toString(),
        first.read());
  }

  private static Outcome unknown(final Set<Level> levels, final String reason) {
    final Map<Level, Verdict> v = new EnumMap<>(Level.class);
    levels.forEach(l -> v.put(l, Verdict.UNKNOWN));
    return new Outcome(v, Map.of(), reason);
  }

  /** A transaction's reads of keys it has not written yet (every one, not just the first of a key). */
  private static List<Op> externalReads(final Transaction t) {
    final List<Op> out = new ArrayList<>();
    final java.util.Set<String> written = new java.util.HashSet<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        written.add(op.key());
      } else if (op.isRead() && !written.contains(op.key())) {
        out.add(op);
      }
    }
    return out;
  }

  /**
   * The transactions that count, as the weak-level oracle has it: committed ones, and an
   * indeterminate one when a counted other transaction's external read (any of them) returned its
   * last write of the key, to a fixpoint; sessions by name, each in session order.
   */
  static List<Transaction> counted(final History history, final Long initial) {
    final List<Transaction> all = history.transactions();
    final Map<VersionOrderProblem.KeyValue, List<Integer>> unknownWriters = new HashMap<>();
    final boolean[] counted = new boolean[all.size()];
    final ArrayDeque<Integer> work = new ArrayDeque<>();
    for (int i = 0; i < all.size(); i++) {
      final Transaction t = all.get(i);
      if (t.status() == TxnStatus.COMMITTED) {
        counted[i] = true;
        work.add(i);
      } else if (t.status() == TxnStatus.UNKNOWN) {
        for (final Map.Entry<String, Long> w : VersionOrderProblem.lastWrites(t).entrySet()) {
          unknownWriters.computeIfAbsent(new VersionOrderProblem.KeyValue(w.getKey(), w.getValue()),
              x -> new ArrayList<>()).add(i);
        }
      }
    }
    while (!work.isEmpty()) {
      final int r = work.poll();
      for (final Op read : externalReads(all.get(r))) {
        for (final int u : unknownWriters.getOrDefault(new VersionOrderProblem.KeyValue(read.key(), read.value()),
            List.of())) {
          if (u != r && !counted[u]) {
            counted[u] = true;
            work.add(u);
          }
        }
      }
    }
    final Map<String, List<Transaction>> bySession = new TreeMap<>();
    for (int i = 0; i < all.size(); i++) {
      if (counted[i]) {
        bySession.computeIfAbsent(all.get(i).session(), x -> new ArrayList<>()).add(all.get(i));
      }
    }
    final List<Transaction> out = new ArrayList<>();
    for (final List<Transaction> session : bySession.values()) {
      if (session.stream().allMatch(Transaction::hasSeq)) {
        session.sort(java.util.Comparator.comparingLong(Transaction::seq));
      }
      out.addAll(session);
    }
    return out;
  }

  private static List<Integer> sessionNumbers(final List<Transaction> txns) {
    final Map<String, Integer> ids = new LinkedHashMap<>();
    final List<Integer> out = new ArrayList<>(txns.size());
    for (final Transaction t : txns) {
      out.add(ids.computeIfAbsent(t.session(), s -> ids.size()));
    }
    return out;
  }

  /**
   * The counted transactions with every write renumbered uniquely, each read returning its chosen
   * writer's renumbered value, and the way back from renumbered values to the history's own.
   */
  private static final class Renumbered {
    private final List<Transaction> txns;
    /** Per transaction, per op: the renumbered value of a write, or of a read after an own write. */
    private final List<long[]> opValue = new ArrayList<>();
    private final List<Map<String, Long>> lastFresh = new ArrayList<>();
    private final Map<Long, Long> back = new HashMap<>();
    private final Map<String, String> backText = new HashMap<>();
    private final Map<String, Transaction> byId = new HashMap<>();

    Renumbered(final List<Transaction> txns, final long base) {
      this.txns = txns;
      long next = base;
      for (final Transaction t : txns) {
        final long[] values = new long[t.ops().size()];
        final Map<String, Long> last = new HashMap<>();
        final Map<String, List<long[]>> own = new HashMap<>(); // key -> (original, fresh) of own writes so far
        for (int j = 0; j < values.length; j++) {
          final Op op = t.ops().get(j);
          if (op.isWrite()) {
            values[j] = next;
            back.put(next, op.value());
            last.put(op.key(), next);
            own.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(new long[] {op.value(), next});
            next++;
          } else if (op.isRead() && own.containsKey(op.key())) {
            // After an own write: the latest own write of that value (the last one, or an earlier one:
            // NotMyLastWrite), else a value nobody wrote (NotMyOwnWrite), as the history has it.
            final List<long[]> ws = own.get(op.key());
            long v = Long.MIN_VALUE;
            for (int w = ws.size() - 1; w >= 0 && v == Long.MIN_VALUE; w--) {
              if (op.value() != null && ws.get(w)[0] == op.value()) {
                v = ws.get(w)[1];
              }
            }
            if (v == Long.MIN_VALUE) {
              v = next++;
              back.put(v, op.value());
            }
            values[j] = v;
          }
        }
        opValue.add(values);
        lastFresh.add(last);
      }
      back.forEach((fresh, original) -> backText.put(String.valueOf(fresh), String.valueOf(original)));
    }

    /** Transaction i of this case: its reads of others' writes return the chosen writer's renumbered value. */
    Transaction of(final int i, final Long initial, final Map<List<Object>, Integer> groupOf, final int[] chosen) {
      final Transaction t = txns.get(i);
      final List<Op> ops = new ArrayList<>(t.ops().size());
      final java.util.Set<String> written = new java.util.HashSet<>();
      for (int j = 0; j < t.ops().size(); j++) {
        final Op op = t.ops().get(j);
        if (op.isWrite()) {
          written.add(op.key());
          ops.add(Op.write(op.key(), opValue.get(i)[j]));
        } else if (!op.isRead()) {
          ops.add(op);
        } else if (written.contains(op.key())) {
          ops.add(Op.read(op.key(), opValue.get(i)[j]));
        } else {
          final int w = chosen[groupOf.get(java.util.Arrays.asList(i, op.key(), op.value()))];
          ops.add(Op.read(op.key(), w < 0 ? initial : lastFresh.get(w).get(op.key())));
        }
      }
      return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(), t.level(),
          t.line());
    }

    /** The anomaly of a case told with the history's own transactions and values. */
    Anomaly back(final Anomaly a, final History history) {
      if (byId.isEmpty()) {
        history.transactions().forEach(t -> byId.putIfAbsent(t.id(), t));
      }
      final List<Transaction> originals = a.transactions().stream().map(t -> byId.getOrDefault(t.id(), t)).toList();
      final List<Edge> cycle = a.cycle().stream().map(e -> new Edge(e.from(), e.to(), e.kind(), e.key(),
          e.value() != null && back.containsKey(e.value()) ? back.get(e.value()) : e.value())).toList();
      final Matcher m = NUMBER.matcher(a.explanation());
      final StringBuilder text = new StringBuilder();
      while (m.find()) {
        // Renumbered values are decimal strings of 19 digits, none of which is a time or a line.
        final String original = backText.get(m.group());
        m.appendReplacement(text, Matcher.quoteReplacement(original != null ? original : m.group()));
      }
      m.appendTail(text);
      final io.isowatch.core.check.AnomalyRead read = a.read() == null ? null
          : new io.isowatch.core.check.AnomalyRead(a.read().txn(), a.read().op(), a.read().key(),
              a.read().value() != null && back.containsKey(a.read().value()) ? back.get(a.read().value()) : a.read().value());
      return new Anomaly(a.type(), a.name(), a.violates(), originals, cycle, text.toString(), read);
    }
  }
}
