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

  private final Map<String, Transaction> originals;
  private final ListOrders orders;

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
    if ("LostUpdate".equals(a.name()) && a.cycle().size() == 2) {
      return x.lostUpdate(a);
    }
    if (!a.cycle().isEmpty()) {
      return x.cycle(a);
    }
    if (a.read() != null) {
      return x.read(a);
    }
    return a;
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
    final String[] lines = explanation.split("\n", -1);
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
    return changed ? String.join("\n", lines) : explanation;
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
        if (read != null && Objects.equals(last(read), v)) {
          return new Step(e, e.to() + " read " + k + "=" + shown(read) + (v == null ? ", the empty list " + e.from()
              + " holds initially" : ", which ends in " + v + ", appended by " + e.from()));
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
        if (read != null && Objects.equals(last(read), v)) {
          final ListOrders.KeyOrder order = orders.of(k);
          final boolean shownByARead = order.position(appended) >= 0;
          // The engine's RW reaches every append that built on the version read (the append's
          // transaction read it too): after a lost append, the lists may put other elements between.
          final boolean next = shownByARead && order.position(appended) == (v == null ? 0 : order.position(v) + 1);
          return new Step(e, e.from() + " read " + k + "=" + shown(read) + ", and " + e.to() + " appended "
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
    String text = a.explanation().replace(claim, told);
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
