package io.isowatch.core.listappend;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Rewords an anomaly the register engine found in the {@link RegisterTranslation} so that it states
 * only what the list-append history shows (docs/list-append.md, "Explanations"). The translation
 * gives every append a read of the version it builds on; the engine's texts would call that a read
 * ("T2 read x=1") and may label an edge RW where the lists order two appends (WW). Here each step of
 * a cycle is told again from the original transactions and the key's order: a read names the list
 * the transaction read, an append the element it appended and the one it follows, and an edge whose
 * source only appended becomes the WW the lists give. Steps of session order and real time and the
 * {@code Let:} lines are kept as the engine wrote them; the engine's sentences around the steps that
 * speak of writes and observed values are told for lists ({@link #listSentences}).
 */
final class ListExplanations {
  /**
   * The engine's register sentences and what each says of a list-append history: the closing
   * sentence of a cycle, the Adya sentence of PL2/RR, an IntermediateRead's rule, and the search of
   * version orders (whose blind writes are the appends no read shows when the history writes no
   * register).
   */
  private static final String[][] SENTENCES = {
      {"a cycle, so no order of these transactions explains what they observed.",
          "a cycle, so no order of these transactions explains the lists the reads returned."},
      {"These edges form a cycle of Adya's direct serialization graph (no session order).",
          "These edges form a cycle of Adya's direct serialization graph, each key's version order being the order of "
              + "its lists (no session order)."},
      {": only a transaction's last write of a key may be visible (Adya G1b)",
          ": a list that holds one of a transaction's appends to a key must hold its last one too (Adya G1b: only a "
              + "transaction's final version of a key may be visible)"}};
  private static final String[][] SEARCH_SENTENCES = {
      {"Every version order of the blind writes has a cycle at ", "Every order of the appends no read shows has a cycle at "},
      {"(a writer that read a version follows it directly, and the chain of writers that starts at the initial version "
          + "comes first)", "(an append comes right after the list its transaction saw, and every append no read shows "
          + "comes after the latest list any read shows)"},
      {"No version order of the blind writes avoids a cycle at ", "No order of the appends no read shows avoids a cycle at "}};

  /**
   * The weak levels' axioms as the register explainer states them ({@code WeakExplanations}: a
   * writer ordered before the writer a read returns) and what each means for lists, where the
   * commit order of a key's appenders is the order of its list: the list a read returns holds the
   * appends of every transaction the level makes it see, ahead of those of the appender of its last
   * element. Only when the history writes no register, so that every key is a list. (The initial
   * transaction's "precedes every other" is left to ListAppendCheck, which tells it, on a stand-in
   * key, as the base's appender.)
   */
  private static final String[][] WEAK_SENTENCES = {
      {"Read Committed orders before the writer a read returns every writer of the key that an earlier read of the "
          + "transaction read from", "under Read Committed the list a read returns holds the appends to its key of every "
          + "transaction an earlier read of the reader read from, ahead of the appends of the transaction whose element "
          + "ends that list"},
      {"Read Atomic orders before the writer a read returns every writer of the key that the transaction read from or "
          + "follows in its session", "under Read Atomic the list a read returns holds the appends to its key of every "
          + "transaction the reader read from or follows in its session, ahead of the appends of the transaction whose element "
          + "ends that list"},
      {"Causal Consistency orders before the writer a read returns every writer of the key that causally precedes the "
          + "transaction (SO ∪ WR)+", "under Causal Consistency the list a read returns holds the appends to its key of every "
          + "transaction that causally precedes the reader (SO ∪ WR)+, ahead of the appends of the transaction whose element "
          + "ends that list"}};

  private final Map<String, Transaction> originals;
  private final ListOrders orders;
  /** (key, element) to its first appender, built on first use ({@link #appender}). */
  private Map<String, Transaction> appenders;

  private ListExplanations(final Map<String, Transaction> originals, final ListOrders orders) {
    this.originals = originals;
    this.orders = orders;
  }

  /** The anomaly told with appends and list reads; the same anomaly when there is nothing to reword. */
  static Anomaly reword(final Anomaly a, final Map<String, Transaction> originals, final ListOrders orders) {
    if (a.explanation() == null) {
      return a;
    }
    final ListExplanations x = new ListExplanations(originals, orders);
    final Anomaly told;
    if ("LostUpdate".equals(a.name()) && a.cycle().size() == 2) {
      told = x.lostUpdate(a);
    } else if (!a.cycle().isEmpty()) {
      told = x.cycle(a);
    } else if (a.read() != null) {
      told = x.read(a);
    } else {
      told = a;
    }
    String lists = x.registerValues(told.explanation());
    final java.util.regex.Matcher own = OWN_WRITE.matcher(lists == null ? "" : lists);
    if (own.find() && originals.get(own.group(1)) != null) {
      lists = ownAppendMissed(lists, originals.get(own.group(1)), own.group(2));
    }
    return lists.equals(told.explanation()) ? told : new Anomaly(told.type(), told.name(), told.violates(),
        told.transactions(), told.cycle(), lists, told.read());
  }

  /** "T read k=v" of the engine's register texts, v a number or null; followed by what may name its writer. */
  private static final java.util.regex.Pattern REGISTER_READ = java.util.regex.Pattern.compile(
      "\\b([^\\s,;:()]+)(?: \\((?:judged at|declared) [A-Z0-9]+\\))? read ([^\\s=\\[\\](),;:]+)=(-?\\d+|null)(?=[ ,;:.)]|$)"
          + "(, written by | from |, which (\\S+) wrote)?");
  /** The weak levels' IntermediateRead sentence, about a writer T that only appended. */
  private static final java.util.regex.Pattern OVERWROTE_OWN = java.util.regex.Pattern.compile(
      "\\b([^\\s,;:()]+) wrote it and later overwrote it in the same transaction");
  /** The engine's NotMyOwnWrite sentence: "T wrote k=w and later read ...". */
  private static final java.util.regex.Pattern OWN_WRITE = java.util.regex.Pattern.compile(
      "\\b([^\\s,;:()]+) wrote ([^\\s=]+)=-?\\d+ and later read ");
  /** "X, which also wrote k": the engine's words for a transaction that wrote the key. */
  private static final java.util.regex.Pattern ALSO_WROTE = java.util.regex.Pattern.compile(
      "\\b([^\\s,;:()]+), which also wrote ([^\\s,;:.()]+)");

  /**
   * The explanation with what the steps above leave of the engine's register wording told for
   * lists (the weak levels' and the read anomalies' texts): "T read k=v", v the version the
   * translation gave one of T's list reads of k, becomes that list ("k=[..,v]", with {@link
   * #uncommittedTail}), "written by A" / "which A wrote" its last element's appender, and "A,
   * which also wrote k" "also appended to k" when A only appended to k. A read T has no such list
   * of is left as it is (a register read of the history).
   */
  String registerValues(final String explanation) {
    if (explanation == null) {
      return null;
    }
    final StringBuilder sb = new StringBuilder(explanation.length() + 64);
    final java.util.regex.Matcher m = REGISTER_READ.matcher(explanation);
    int last = 0;
    while (m.find()) {
      final Transaction t = originals.get(m.group(1));
      final String k = m.group(2);
      final Long v = "null".equals(m.group(3)) ? null : Long.valueOf(m.group(3));
      final Op nonEmpty = t == null ? null : listNaming(t, k, v);
      // A read of the empty list itself is told by emptyLists ("the empty list, the initial value").
      final Op list = nonEmpty != null && !nonEmpty.elements().isEmpty() ? nonEmpty : null;
      final String appended = t == null || list != null ? null : appendBuildingOn(t, k, v);
      if (list == null && appended == null) {
        continue;
      }
      final String writer = m.group(4) == null ? null : m.group(5) != null ? m.group(5)
          : explanation.substring(m.end()).split("[\\s,;:.()]", 2)[0];
      // the subject with what the mixed explainer says of its level: "T9 (judged at PC)"
      sb.append(explanation, last, m.start()).append(explanation, m.start(), m.start(2) - " read ".length());
      if (list != null) {
        sb.append(" read ").append(k).append('=').append(shown(list)).append(uncommittedTail(list, v));
      } else { // the translation's read before an append: the version the append builds on
        sb.append(appended);
      }
      if (writer != null) {
        sb.append(", which ends in ").append(v).append(", appended by ").append(m.group(5) != null ? writer : "");
      }
      last = m.end();
    }
    String text = sb.append(explanation, last, explanation.length()).toString();
    final java.util.regex.Matcher w = ALSO_WROTE.matcher(text);
    final StringBuilder out = new StringBuilder(text.length());
    last = 0;
    while (w.find()) {
      final Transaction a = originals.get(w.group(1));
      final String k = w.group(2);
      if (a != null && a.ops().stream().anyMatch(op -> op.isAppend() && op.key().equals(k))
          && a.ops().stream().noneMatch(op -> op.isWrite() && op.key().equals(k))) {
        out.append(text, last, w.start()).append(w.group(1)).append(", which also appended to ").append(k);
        last = w.end();
      }
    }
    text = out.append(text, last, text.length()).toString();
    final java.util.regex.Matcher g1b = OVERWROTE_OWN.matcher(text);
    if (g1b.find() && originals.get(g1b.group(1)) != null
        && originals.get(g1b.group(1)).ops().stream().noneMatch(Op::isWrite)) {
      text = text.substring(0, g1b.start()) + g1b.group(1) + " appended it and then another element to the same key in "
          + "the same transaction" + text.substring(g1b.end());
    }
    return text;
  }

  /**
   * What the translation's read of k=v before an append of t says, told as that append (" appended
   * e to k ..., building on k=[..v]"), or null when no append of t builds on v. The translation
   * reads, before an append that is t's first op on k, the version it builds on: the last element
   * before it in the order every read of k is a prefix of that a transaction that did not abort
   * appended, or for an append no read shows, the last such element of the whole order ({@link
   * RegisterTranslation}). Elements between v and the append that no committed transaction appended
   * (aborted, or from thin air) are named with their reason, so that the text never says the
   * append came right after v when a read shows something between them.
   */
  private String appendBuildingOn(final Transaction t, final String k, final Long v) {
    final ListOrders.KeyOrder order = orders.of(k);
    if (!order.duplicates().isEmpty()) {
      return null;
    }
    final List<Long> known = order.order();
    final int from = v == null ? 0 : order.position(v) + 1;
    if (v != null && from == 0) {
      return null;
    }
    for (final Op op : t.ops()) {
      if (!op.key().equals(k)) {
        continue;
      }
      if (!op.isAppend()) {
        return null; // the translation reads before an append only when it is the first op on the key
      }
      final int at = order.position(op.value());
      final int end = at >= 0 ? at : known.size();
      if (end < from || !dead(k, known.subList(from, end))) {
        return null;
      }
      final List<Long> between = known.subList(from, end);
      final StringBuilder sb = new StringBuilder(" appended ").append(op.value()).append(" to ").append(k);
      if (at < 0) {
        sb.append(", which no read shows, so after ").append(k).append('=').append(format(known))
            .append(", the latest version of ").append(k).append(" any read shows");
      } else if (between.isEmpty()) {
        return sb.append(v == null ? " as its first element" : " right after " + v).append(", building on ")
            .append(version(k, v)).toString();
      } else {
        sb.append(" right after ").append(between.get(between.size() - 1)).append(" (the order of ").append(k)
            .append(" every read is a prefix of: ").append(format(known.subList(0, at + 1))).append(')');
      }
      if (between.isEmpty()) {
        return sb.toString(); // (what follows names v's appender: ", which ends in v, appended by A")
      }
      return sb.append(", where ").append(String.join(" and ", reasons(k, between))).append("; without ")
          .append(between.size() == 1 ? "it" : "them").append(", it builds on ").append(version(k, v)).toString();
    }
    return null;
  }

  /** True when no transaction that did not abort appended any of the elements to k. */
  private boolean dead(final String k, final List<Long> elements) {
    for (final Long x : elements) {
      final Transaction a = appender(k, x);
      if (a != null && a.status() != io.isowatch.core.history.TxnStatus.ABORTED) {
        return false;
      }
    }
    return true;
  }

  /** For each element no committed transaction appended to k, why it is not a version: "5 was appended by T4, which aborted (G1a)". */
  private List<String> reasons(final String k, final List<Long> elements) {
    final List<String> why = new ArrayList<>(elements.size());
    for (final Long x : elements) {
      final Transaction a = appender(k, x);
      why.add(x + (a == null ? " was appended by no transaction (thin air)" : " was appended by " + a.id()
          + ", which aborted (G1a)"));
    }
    return why;
  }

  /** T's first list read of k whose version (its last element a live append put there) is v, or null. */
  private Op listNaming(final Transaction t, final String k, final Long v) {
    for (final Op op : t.ops()) {
      if (op.isListRead() && op.key().equals(k) && uncommittedTail(op, v) != null) {
        return op;
      }
    }
    return null;
  }

  /**
   * The explanation with the engine's register sentences told for lists ({@link #SENTENCES}); the
   * search's sentences only when the history writes no register, so that its blind writes are
   * appends no read shows.
   */
  static String listSentences(final String explanation, final boolean registerWrites) {
    String text = explanation;
    for (final String[] s : SENTENCES) {
      text = text.replace(s[0], s[1]);
    }
    if (!registerWrites) {
      for (final String[] s : SEARCH_SENTENCES) {
        text = text.replace(s[0], s[1]);
      }
      for (final String[] s : WEAK_SENTENCES) {
        text = text.replace(s[0], s[1]);
      }
    }
    return text;
  }

  /** "k=null" in an explanation: the key is group 1. */
  private static final java.util.regex.Pattern NULL_VALUE =
      java.util.regex.Pattern.compile("(?<=[\\s(])([^\\s=\\[\\](),;:]+)=null(?![\\w\\[])");
  /** The transaction a step or a read's line is about: "  - T3 read ..." or "  - T1 < T2, because T1 read ...". */
  private static final java.util.regex.Pattern SUBJECT =
      java.util.regex.Pattern.compile("^\\s*- (?:\\S+ < \\S+, because )?(\\S+) ");

  /**
   * The explanation with the translation's null reads told as the lists the history read: the
   * translation gives a read of the empty list {@code []} to the engine as a read of the initial
   * value null, and the engine's sentences ("T3 read x=null, the initial value of x", "T3 read
   * x=null and later x=1") would show a value the history never returned. A line's "k=null" is
   * retold, as {@code k=[]} and "the empty list", only when the transaction the line is about read
   * the empty list of k and no register read of k returned null to it (then it is that read).
   */
  static String emptyLists(final String explanation, final Map<String, Transaction> originals) {
    if (explanation == null || !explanation.contains("=null")) {
      return explanation;
    }
    final String named = namedReadsOfNull(explanation, originals);
    final String[] lines = named.split("\n", -1);
    boolean changed = false;
    for (int i = 0; i < lines.length; i++) {
      final String line = lines[i];
      final java.util.regex.Matcher subject = SUBJECT.matcher(line);
      final Transaction t = line.contains("=null") && subject.find() ? originals.get(subject.group(1)) : null;
      if (t == null) {
        continue;
      }
      final java.util.regex.Matcher m = NULL_VALUE.matcher(line);
      final StringBuilder sb = new StringBuilder(line.length() + 32);
      int last = 0;
      while (m.find()) {
        final String k = m.group(1);
        if (!readEmptyList(t, k)) {
          continue;
        }
        sb.append(line, last, m.start()).append(k).append("=[]");
        final String initial = ", the initial value of " + k;
        if (line.startsWith(initial, m.end())) {
          sb.append(", the empty list, the initial value of ").append(k);
          last = m.end() + initial.length();
        } else {
          last = m.end();
        }
      }
      if (last > 0) {
        lines[i] = sb.append(line, last, line.length()).toString();
        changed = true;
      }
    }
    return changed ? String.join("\n", lines) : named;
  }

  /** "T read k=null" anywhere in a line, T with what the mixed explainer says of its level ("T4 (judged at PC)"). */
  private static final java.util.regex.Pattern NAMED_READ_NULL = java.util.regex.Pattern.compile(
      "\\b([^\\s,;:()]+)((?: \\((?:judged at|declared) [A-Z0-9]+\\))? read )([^\\s=\\[\\](),;:]+)=null(?![\\w\\[])"
          + "(, the initial value(?: of [^\\s,;:]+)?)?");

  /**
   * The explanation with each "T read k=null" told as "T read k=[]" (and "the initial value" as "the
   * empty list, the initial value") where T read the empty list of k and no register read of k
   * returned null to it, wherever in a line it is (the mixed explainer's premises name the reader
   * after other transactions: "where T3 < T1: T3 < T1, because T4 (judged at PC) read x=null").
   */
  private static String namedReadsOfNull(final String explanation, final Map<String, Transaction> originals) {
    final java.util.regex.Matcher m = NAMED_READ_NULL.matcher(explanation);
    final StringBuilder sb = new StringBuilder(explanation.length() + 32);
    int last = 0;
    while (m.find()) {
      final Transaction t = originals.get(m.group(1));
      if (t == null || !readEmptyList(t, m.group(3))) {
        continue;
      }
      sb.append(explanation, last, m.start()).append(m.group(1)).append(m.group(2)).append(m.group(3)).append("=[]");
      if (m.group(4) != null) {
        sb.append(", the empty list, the initial value of ").append(m.group(3));
      }
      last = m.end();
    }
    return last == 0 ? explanation : sb.append(explanation, last, explanation.length()).toString();
  }

  /** True when t read the empty list of k and no register read of k returned null to it. */
  private static boolean readEmptyList(final Transaction t, final String k) {
    boolean empty = false;
    for (final Op op : t.ops()) {
      if (op.isRead() && op.key().equals(k)) {
        if (!op.isListRead() && op.value() == null) {
          return false;
        }
        empty |= op.isListRead() && op.elements().isEmpty();
      }
    }
    return empty;
  }

  /** A step told from the lists: the edge as the lists give it, and why it holds. */
  private record Step(Edge edge, String reason) {}

  private Anomaly cycle(final Anomaly a) {
    final List<Edge> edges = new ArrayList<>(a.cycle().size());
    final String[] lines = a.explanation().split("\n", -1);
    int next = 0;
    for (int i = 0; i < lines.length; i++) {
      final String line = lines[i];
      if (!line.startsWith("  - ") || !line.contains(", because ") || next >= a.cycle().size()) {
        continue;
      }
      final Edge e = a.cycle().get(next++);
      final Step s = step(e);
      edges.add(s.edge());
      final String head = "  - " + e.from() + " < " + e.to() + ", because ";
      if (s.reason() != null && line.startsWith(head)) {
        lines[i] = head + s.reason() + line.charAt(line.length() - 1);
      }
    }
    while (edges.size() < a.cycle().size()) {
      edges.add(a.cycle().get(edges.size()));
    }
    String text = String.join("\n", lines);
    final String type = relabelled(a, edges);
    if (type == null) {
      return new Anomaly(a.type(), a.name(), a.violates(), a.transactions(), edges, text, a.read());
    }
    final String label = " (" + a.type() + (a.name() != null ? ", " + a.name() : "") + ")";
    final int at = text.lastIndexOf(label);
    if (at >= 0) {
      text = text.substring(0, at) + " (" + type + ")" + text.substring(at + label.length());
    }
    return new Anomaly(type, null, a.violates(), a.transactions(), edges, text, a.read());
  }

  /**
   * The Adya class of the cycle as the lists give it, when telling it for lists turned one of the
   * engine's RW or WR edges into WW (an append right after another, which the translation's read
   * before the append made a read); null when no edge changed. Classed as the engine classes a
   * cycle ({@code CycleClassifier}): G0 when every edge is WW, SO or RT and one is WW, else G1c with
   * no RW, G-single with one, G2-item with more; the engine's -process or -realtime suffix stays
   * (session order and real time are not retold). The MTC pattern name is dropped: every pattern
   * the engine names has a WR or RW where the lists now give WW (docs/list-append.md).
   */
  private static String relabelled(final Anomaly a, final List<Edge> edges) {
    boolean changed = false;
    int rw = 0;
    boolean writeOrder = true;
    boolean ww = false;
    for (int i = 0; i < edges.size(); i++) {
      final EdgeKind k = edges.get(i).kind();
      changed |= k == EdgeKind.WW && a.cycle().get(i).kind() != EdgeKind.WW;
      rw += k == EdgeKind.RW ? 1 : 0;
      writeOrder &= k == EdgeKind.WW || k == EdgeKind.SO || k == EdgeKind.RT;
      ww |= k == EdgeKind.WW;
    }
    if (!changed) {
      return null;
    }
    final String base = writeOrder && ww ? "G0" : rw == 0 ? "G1c" : rw == 1 ? "G-single" : "G2-item";
    final String suffix = a.type().endsWith("-realtime") ? "-realtime" : a.type().endsWith("-process") ? "-process" : "";
    final String type = base + suffix;
    return type.equals(a.type()) && a.name() == null ? null : type;
  }

  /**
   * The engine's edge A→B on a key told from the lists. WR: B read the version A installed; WW: B
   * installed the version after A's; RW: A read the version B's follows. When the transaction the
   * engine says read only appended, that read is the translation's, and the lists' own relation is
   * told instead (WR becomes WW; RW from an appender becomes WW).
   */
  private Step step(final Edge e) {
    if (e.key() == null || (e.kind() != EdgeKind.WR && e.kind() != EdgeKind.WW && e.kind() != EdgeKind.RW)) {
      return new Step(e, null);
    }
    final String k = e.key();
    final Transaction from = originals.get(e.from());
    final Transaction to = originals.get(e.to());
    if (to == null) {
      return new Step(e, null);
    }
    final Long v = e.value();
    switch (e.kind()) {
      case WR: {
        final Op read = readBefore(to, k);
        final String tail = read == null ? null : uncommittedTail(read, v);
        if (tail != null) {
          return new Step(e, e.to() + " read " + k + "=" + shown(read) + tail + (v == null ? ", the empty list "
              + e.from() + " holds initially" : ", which ends in " + v + ", appended by " + e.from()));
        }
        final Long appended = appendFollowing(to, k, v);
        if (appended != null) {
          final Edge ww = new Edge(e.from(), e.to(), EdgeKind.WW, k, v);
          return new Step(ww, appendedAfter(e.to(), appended, k, v, e.from()));
        }
        return new Step(e, null);
      }
      case WW: {
        final Long appended = appendFollowing(to, k, v);
        if (appended == null) {
          return new Step(e, null);
        }
        final Op read = readBefore(to, k);
        if (read != null && Objects.equals(last(read), v)) {
          return new Step(e, e.to() + " read " + k + "=" + shown(read) + ", which ends in " + e.from() + "'s " + v
              + ", and then appended " + appended + " to " + k);
        }
        return new Step(e, appendedAfter(e.to(), appended, k, v, e.from()));
      }
      default: { // RW
        final Long appended = appendFollowing(to, k, v);
        if (from == null || appended == null) {
          return new Step(e, null);
        }
        final Op read = readBefore(from, k);
        final String tail = read == null ? null : uncommittedTail(read, v);
        if (tail != null) {
          final ListOrders.KeyOrder order = orders.of(k);
          final boolean shownByARead = order.position(appended) >= 0;
          // The engine's RW reaches every append that built on the version read (the append's
          // transaction read it too): after a lost append, the lists may put other elements between.
          final boolean next = shownByARead && order.position(appended) == (v == null ? 0 : order.position(v) + 1);
          return new Step(e, e.from() + " read " + k + "=" + shown(read) + tail + ", and " + e.to() + " appended "
              + appended + (next ? ", the element after it in the order of " + k + " every read is a prefix of"
                  : shownByARead ? ", which comes after it in the order of " + k + " every read is a prefix of ("
                      + version(k, appended) + ")"
                  : ", which no read shows: " + version(k, v) + " is the latest version of " + k + " any read shows, "
                      + "and every append no read shows comes after it"));
        }
        final Long own = appends(from, k, v) ? v : lastAppend(from, k);
        if (own == null) {
          return new Step(e, null);
        }
        // The source only appended: the translation's read before its append is no read of the
        // history, and the lists order its element before the target's.
        final Edge ww = new Edge(e.from(), e.to(), EdgeKind.WW, k, own);
        return new Step(ww, appendedAfter(e.to(), appended, k, own, e.from()));
      }
    }
  }

  /** "B appended e to k right after A's v (...)", or after the latest shown version when no read shows e. */
  private String appendedAfter(final String b, final Long e, final String k, final Long v, final String a) {
    final ListOrders.KeyOrder order = orders.of(k);
    final String after = v == null ? "as the first element of " + k : "after " + a + "'s " + v;
    if (order.position(e) >= 0) {
      final int p = order.position(e);
      final boolean adjacent = v != null && order.position(v) >= 0 && p == order.position(v) + 1;
      return b + " appended " + e + " to " + k + " " + (adjacent ? "right " + after : after) + " (the order of " + k
          + " every read is a prefix of: " + format(order.order().subList(0, p + 1)) + ")";
    }
    final List<Long> shown = order.order();
    final Long latest = shown.isEmpty() ? null : shown.get(shown.size() - 1);
    final boolean atEnd = Objects.equals(v, latest);
    return b + " appended " + e + " to " + k + ", which no read shows: " + version(k, latest) + " is the latest version of "
        + k + " any read shows" + (v != null && atEnd ? ", ending in " + a + "'s " + v : "") + ", and every append no "
        + "read shows comes after it" + (atEnd ? "" : ", so after " + a + "'s " + (v == null ? "[]" : v));
  }

  /** The version of k ending in v as a list: the order's prefix up to v. */
  private String version(final String k, final Long v) {
    if (v == null) {
      return k + "=[]";
    }
    final ListOrders.KeyOrder order = orders.of(k);
    final int p = order.position(v);
    return p < 0 ? "the version of " + k + " ending in " + v : k + "=" + format(order.order().subList(0, p + 1));
  }

  private Anomaly lostUpdate(final Anomaly a) {
    final Edge ww = a.cycle().get(0);
    final Edge rw = a.cycle().get(1);
    final String k = ww.key();
    final Long v = rw.value();
    final String first = ww.from();
    final String second = ww.to();
    final Transaction t1 = originals.get(first);
    final Transaction t2 = originals.get(second);
    final String[] lines = a.explanation().split("\n", -1);
    int then = -1;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].equals("Then:")) {
        then = i;
      }
    }
    if (t1 == null || t2 == null || then < 0 || then + 3 >= lines.length) {
      return a;
    }
    lines[then + 1] = "  - " + builtOn(first, t1, k, v) + ", and " + builtOn(second, t2, k, v) + ";";
    lines[then + 2] = "  - an append builds on the version of the key its transaction saw, or else on the version "
        + "right before its element, and SI, SER and SSER let no other append come in between: each must directly "
        + "follow " + version(k, v) + " in the order of " + k + ", which is impossible for two;";
    lines[then + 3] = "  - whichever appended second built on a version that was no longer the latest: if " + first
        + " came first, then " + first + " < " + second + " (WW) and " + second + " < " + first + " (" + second
        + " built on " + version(k, v) + ", which " + first + "'s append follows), and symmetrically.";
    final String text = String.join("\n", lines).replace("So one of the two updates was lost",
        "So one of the two appends was lost");
    return new Anomaly(a.type(), a.name(), a.violates(), a.transactions(), lostUpdateEdges(a.cycle(), t1, t2), text,
        a.read());
  }

  /**
   * The lost update's two edges as the lists give them. When both read the version, either order
   * of their appends is a cycle and the engine's pair (WW one way, RW back) stands. When only one
   * read it, the other only appended right after it, and the lists put that append first: WW from
   * the appender, RW from the reader.
   */
  private List<Edge> lostUpdateEdges(final List<Edge> cycle, final Transaction t1, final Transaction t2) {
    final Edge ww = cycle.get(0);
    final Edge rw = cycle.get(1);
    final String k = ww.key();
    final Long v = rw.value();
    final boolean read1 = readBefore(t1, k) != null && Objects.equals(last(readBefore(t1, k)), v);
    final boolean read2 = readBefore(t2, k) != null && Objects.equals(last(readBefore(t2, k)), v);
    if (read1 == read2) {
      return cycle;
    }
    final Transaction reader = read1 ? t1 : t2;
    final Transaction appender = read1 ? t2 : t1;
    final Long appended = firstAppend(appender, k);
    final int p = orders.of(k).position(appended);
    if (appended == null || p < 0 || p != orders.of(k).position(v) + 1) {
      return cycle;
    }
    return List.of(new Edge(appender.id(), reader.id(), EdgeKind.WW, k, appended),
        new Edge(reader.id(), appender.id(), EdgeKind.RW, k, v));
  }

  private String builtOn(final String id, final Transaction t, final String k, final Long v) {
    final Op read = readBefore(t, k);
    final Long appended = firstAppend(t, k);
    if (read != null && Objects.equals(last(read), v)) {
      return id + " read " + k + "=" + shown(read) + " and then appended " + appended;
    }
    return id + " appended " + appended + " to " + k + " building on " + version(k, v);
  }

  /**
   * A read anomaly: the engine names the translated read, which is either the list read (then the
   * list is shown) or the read before an append (then the append is told).
   */
  private Anomaly read(final Anomaly a) {
    final AnomalyRead r = a.read();
    final Transaction t = originals.get(r.txn());
    if (t == null || r.op() < 0 || r.op() >= t.ops().size()) {
      return a;
    }
    final Op op = t.ops().get(r.op());
    final String claim = r.txn() + " read " + r.key() + "=" + (r.value() == null ? "null" : r.value());
    final String told;
    if (op.isAppend()) {
      told = r.txn() + " appended " + op.value() + " to " + r.key() + " building on " + version(r.key(), r.value());
    } else if (op.isListRead() || op.isRead()) {
      told = r.txn() + " read " + r.key() + "=" + shown(op);
    } else {
      return a;
    }
    String text = laterReads(a.explanation(), t, r.key());
    text = text.replace(claim, told);
    final String key = java.util.regex.Pattern.quote(r.key());
    if (!op.isAppend()) { // "and later read x=4": the same list read
      text = text.replaceAll(" read " + key + "=" + java.util.regex.Pattern.quote(r.value() == null ? "null" : r.value().toString())
          + "(?=[,:. ])", java.util.regex.Matcher.quoteReplacement(" read " + r.key() + "=" + shown(op)));
    }
    text = text.replaceAll("which (\\S+) wrote but then overwrote with " + key + "=(-?\\d+)",
        "whose last element " + (r.value() == null ? "null" : r.value()) + " $1 appended and then followed with $2");
    text = text.replaceAll(" wrote " + key + "=(-?\\d+)", " appended $1 to " + java.util.regex.Matcher.quoteReplacement(r.key()))
        .replaceAll(" writing " + key + "=(-?\\d+)", " appending $1 to " + java.util.regex.Matcher.quoteReplacement(r.key()))
        .replaceAll(" overwrote with " + key + "=(-?\\d+)", " appended $1 after it");
    return new Anomaly(a.type(), a.name(), a.violates(), a.transactions(), a.cycle(), text, a.read());
  }

  /**
   * How a read of a list names the version {@code v} (null: the empty list), told before that
   * version is shown: "" when the list ends in v; when it ends in elements no committed
   * transaction appended after v, each of them with its reason and "without them, it shows k=[..v]" (the
   * translation reads the version of the last element a transaction that did not abort appended,
   * {@link RegisterTranslation}); null when the list does not name v.
   */
  private String uncommittedTail(final Op read, final Long v) {
    final List<Long> l = read.isListRead() ? read.elements() : List.of();
    final int end = shownUpTo(read, v).size();
    if (end == l.size()) {
      return Objects.equals(last(read), v) ? "" : null;
    }
    if (end == 0 && v != null) {
      return null;
    }
    final List<String> why = new ArrayList<>();
    for (final Long x : l.subList(end, l.size())) {
      final Transaction a = appender(read.key(), x);
      if (a != null && a.status() != io.isowatch.core.history.TxnStatus.ABORTED) {
        return null; // a live element after v: the list names a later version
      }
      why.add(x + (a == null ? " was appended by no transaction (thin air)" : " was appended by " + a.id()
          + ", which aborted (G1a)"));
    }
    return ", where " + String.join(" and ", why) + "; without " + (why.size() == 1 ? "it" : "them") + ", it shows "
        + read.key() + "=" + format(l.subList(0, end));
  }

  /** The read's list up to and including its last occurrence of v (empty for v null), or the whole list. */
  private static List<Long> shownUpTo(final Op read, final Long v) {
    final List<Long> l = read.isListRead() ? read.elements() : List.of();
    if (v == null) {
      return List.of();
    }
    final int at = l.lastIndexOf(v);
    return at < 0 ? l : l.subList(0, at + 1);
  }

  /** The first transaction that appended x to k, or null (an element from thin air). */
  private Transaction appender(final String k, final Long x) {
    if (appenders == null) {
      appenders = new java.util.HashMap<>();
      for (final Transaction t : originals.values()) {
        for (final Op op : t.ops()) {
          if (op.isAppend()) {
            appenders.putIfAbsent(op.key() + "\u0000" + op.value(), t);
          }
        }
      }
    }
    return appenders.get(k + "\u0000" + x);
  }

  /**
   * The engine's "T read k=a and later k=b" (NonRepeatableReads), whose values are the versions
   * the translation gave two list reads of t (a list's last element a transaction that did not abort
   * appended, null for none), told with the two lists t read, each with what {@link #uncommittedTail}
   * says of elements after its version; unchanged when t has no such pair of list reads.
   */
  private String laterReads(final String explanation, final Transaction t, final String k) {
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(t.id() + " read " + k
        + "=") + "(-?\\d+|null) and later " + java.util.regex.Pattern.quote(k + "=") + "(-?\\d+|null)(?=[ ,.:;])")
        .matcher(explanation);
    if (!m.find()) {
      return explanation;
    }
    final Long first = "null".equals(m.group(1)) ? null : Long.valueOf(m.group(1));
    final Long later = "null".equals(m.group(2)) ? null : Long.valueOf(m.group(2));
    final List<Op> ops = t.ops();
    for (int i = 0; i < ops.size(); i++) {
      final Op a = ops.get(i);
      final String aTail = a.isListRead() && a.key().equals(k) ? uncommittedTail(a, first) : null;
      if (aTail == null) {
        continue;
      }
      for (int j = i + 1; j < ops.size(); j++) {
        final Op b = ops.get(j);
        final String bTail = b.isListRead() && b.key().equals(k) ? uncommittedTail(b, later) : null;
        if (bTail != null) {
          final String told = t.id() + " read " + k + "=" + shown(a) + aTail + " and later " + k + "=" + shown(b) + bTail;
          return explanation.substring(0, m.start()) + told + explanation.substring(m.end());
        }
      }
    }
    return explanation;
  }

  /**
   * The engine's "T wrote k=w and later read k=v" (NotMyOwnWrite) told with T's append of w and
   * its later list read of k that does not hold w; unchanged when T has no such pair.
   */
  private static String ownAppendMissed(final String explanation, final Transaction t, final String k) {
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(t.id() + " wrote " + k
        + "=") + "(-?\\d+) and later read " + java.util.regex.Pattern.quote(k + "=") + "(?:-?\\d+|null)(?=[ ,.:;])")
        .matcher(explanation);
    if (!m.find()) {
      return explanation;
    }
    final Long w = Long.valueOf(m.group(1));
    boolean appended = false;
    for (final Op op : t.ops()) {
      if (op.isAppend() && op.key().equals(k) && w.equals(op.value())) {
        appended = true;
      } else if (appended && op.isListRead() && op.key().equals(k) && !op.elements().contains(w)) {
        return explanation.substring(0, m.start()) + t.id() + " appended " + w + " to " + k + " and later read " + k + "="
            + shown(op) + ", which does not hold it" + explanation.substring(m.end());
      }
    }
    return explanation;
  }

  /** The transaction's read of the key before it first appends to it, or null. */
  private static Op readBefore(final Transaction t, final String k) {
    for (final Op op : t.ops()) {
      if (!op.key().equals(k)) {
        continue;
      }
      if (op.isAppend()) {
        return null;
      }
      if (op.isListRead() || (op.isRead() && op.value() == null)) {
        return op;
      }
    }
    return null;
  }

  /**
   * The element t appended to k that the engine's edge is about: the one right after v in the order,
   * else one no read shows (it comes after the order), else t's first.
   */
  private Long appendFollowing(final Transaction t, final String k, final Long v) {
    final ListOrders.KeyOrder order = orders.of(k);
    final int after = v == null ? 0 : order.position(v) + 1;
    Long unshown = null;
    for (final Op op : t.ops()) {
      if (op.isAppend() && op.key().equals(k)) {
        final int p = order.position(op.value());
        if (p >= 0 && p == after && (v == null || after > 0)) {
          return op.value();
        }
        if (p < 0 && unshown == null) {
          unshown = op.value();
        }
      }
    }
    return unshown != null ? unshown : firstAppend(t, k);
  }

  private static boolean appends(final Transaction t, final String k, final Long v) {
    return v != null && t.ops().stream().anyMatch(op -> op.isAppend() && op.key().equals(k) && v.equals(op.value()));
  }

  private static Long firstAppend(final Transaction t, final String k) {
    for (final Op op : t.ops()) {
      if (op.isAppend() && op.key().equals(k)) {
        return op.value();
      }
    }
    return null;
  }

  private static Long lastAppend(final Transaction t, final String k) {
    Long v = null;
    for (final Op op : t.ops()) {
      if (op.isAppend() && op.key().equals(k)) {
        v = op.value();
      }
    }
    return v;
  }

  private static Long last(final Op read) {
    final List<Long> l = read.isListRead() ? read.elements() : List.of();
    return l.isEmpty() ? null : l.get(l.size() - 1);
  }

  /** A read's value as the history has it: the list, or null for a read of an absent key. */
  private static String shown(final Op read) {
    return read.isListRead() ? format(read.elements()) : "null";
  }

  private static String format(final List<Long> elements) {
    return elements.toString().replace(" ", "");
  }
}
