package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes the explanation of an anomaly in Elle's "Let / Then" style: name the transactions with
 * their raw ops, then justify each step of the cycle from the history, so that a person can check
 * the claim against the input without trusting the checker.
 */
final class Explainer {
  private final DependencyView view;
  private final long skewMicros;

  Explainer(final DependencyView view, final long skewMicros) {
    this.view = view;
    this.skewMicros = skewMicros;
  }

  /**
   * The transactions an explanation mentions, in order of first mention. They go by their own ids
   * so that a person can find them in the input; the initial transaction is "init".
   */
  private final class Names {
    final Map<Integer, String> names = new LinkedHashMap<>();

    String of(final int t) {
      return names.computeIfAbsent(t, view::txnId);
    }

    String let() {
      final StringBuilder sb = new StringBuilder("Let:\n");
      names.forEach((t, name) -> sb.append("  ").append(name).append(" = ").append(describe(t)).append('\n'));
      return sb.toString();
    }
  }

  private String describe(final int t) {
    if (t == DependencyView.INIT) {
      return "the initial transaction, writing " + value(view.initialValue()) + " to every key";
    }
    final Transaction txn = view.txn(t);
    final String ops = txn.ops().stream().map(Op::toString).collect(Collectors.joining(" "));
    return "[" + ops + "] (session " + txn.session() + ", " + txn.status().wire()
        + (txn.line() > 0 ? ", line " + txn.line() : "") + ")";
  }

  String cycle(final List<CycleStep> steps, final List<Integer> representative, final CycleClassifier.Classification c) {
    final Names names = new Names();
    for (final CycleStep s : steps) {
      names.of(s.from());
    }
    final StringBuilder then = new StringBuilder("Then:\n");
    for (int i = 0; i < steps.size(); i++) {
      final CycleStep s = steps.get(i);
      final String a = names.of(s.from());
      final String b = names.of(s.to());
      then.append("  - ").append(a).append(" < ").append(b).append(", because ")
          .append(reason(names, s, representative.get(i))).append(i == steps.size() - 1 ? ".\n" : ";\n");
    }
    final String first = names.of(steps.get(0).from());
    return names.let() + then
        + "However, that makes " + first + " precede itself: a cycle, so no order of these transactions "
        + "explains what they observed. " + levelsSentence(c.violates()) + " (" + c.type()
        + (c.name() != null ? ", " + c.name() : "") + ")";
  }

  private String reason(final Names names, final CycleStep s, final int edgeId) {
    final String a = names.of(s.from());
    final String b = names.of(s.to());
    if (edgeId < 0) {
      final Transaction ta = view.txn(s.from());
      final Transaction tb = view.txn(s.to());
      return a + " ended (at " + ta.end() + " µs) before " + b + " started (at " + tb.start() + " µs)"
          + (skewMicros > 0 ? ", by more than the " + skewMicros + " µs clock-skew tolerance" : "");
    }
    final int ver = view.edgeVersion(edgeId);
    final String key = view.edgeKey(edgeId) >= 0 ? view.keyName(view.edgeKey(edgeId)) : null;
    final String kv = key + "=" + value(ver >= 0 ? view.versionValue(ver) : null);
    return switch (view.edgeKind(edgeId)) {
      case WR -> b + " read " + kv + ", which " + a + (s.from() == DependencyView.INIT ? " holds initially" : " wrote");
      case WW -> readOf(s.to(), key, ver)
          ? b + " read " + kv + " from " + a + " and then overwrote it with " + key + "=" + lastWrite(s.to(), key)
          : b + " wrote " + key + " without reading it, and the only place left for its version is right after "
              + a + "'s " + kv;
      case RW -> view.versionWriter(ver) == DependencyView.INIT && !readOf(s.to(), key, ver)
          ? a + " read " + kv + ", the initial value of " + key + "; every version order puts the initial version "
              + "first, so it precedes the version " + key + "=" + lastWrite(s.to(), key) + " that " + b + " wrote"
          : a + " read " + kv + ", and " + b + " overwrote that version with " + key + "=" + lastWrite(s.to(), key);
      case SO -> "both ran in session " + view.txn(s.from()).session() + " and " + a + " came first";
      case RT -> a + " ended before " + b + " started";
    };
  }

  /** Whether t's external read of the key returned exactly that version's value. */
  private boolean readOf(final int t, final String key, final int version) {
    for (final Op op : view.txn(t).ops()) {
      if (op.key().equals(key)) {
        return op.isRead() && java.util.Objects.equals(op.value(), view.versionValue(version));
      }
    }
    return false;
  }

  private String lastWrite(final int t, final String key) {
    final List<Op> ops = view.txn(t).ops();
    for (int j = ops.size() - 1; j >= 0; j--) {
      if (ops.get(j).key().equals(key) && ops.get(j).isWrite()) {
        return value(ops.get(j).value());
      }
    }
    return "?";
  }

  String lostUpdate(final int version, final int a, final int b) {
    final Names names = new Names();
    final int writer = view.versionWriter(version);
    final String w = names.of(writer);
    final String ta = names.of(a);
    final String tb = names.of(b);
    final String k = view.keyName(view.versionKey(version));
    final String kv = k + "=" + value(view.versionValue(version));
    return names.let() + "Then:\n"
        + "  - " + ta + " and " + tb + " both read " + kv + (writer == DependencyView.INIT ? " (the initial value)"
            : ", written by " + w) + ", and both wrote " + k + " (" + ta + ": " + k + "=" + lastWrite(a, k)
        + ", " + tb + ": " + k + "=" + lastWrite(b, k) + ");\n"
        + "  - each overwrote the version it read, so each must directly follow " + w + " in the version order of "
        + k + ", which is impossible for two;\n"
        + "  - whichever wrote second overwrote a version it never read: if " + ta + " came first, then " + ta
        + " < " + tb + " (WW) and " + tb + " < " + ta + " (" + tb + " read " + kv + ", which " + ta
        + " overwrote), and symmetrically.\n"
        + "So one of the two updates was lost (the Divergence pattern, MTC Definition 10). "
        + levelsSentence(AnomalyFactory.LOST_UPDATE_LEVELS) + " (G-single, LostUpdate)";
  }

  String read(final ReadAnomaly a) {
    final Names names = new Names();
    final String r = names.of(a.reader());
    final String w = a.writer() >= 0 ? names.of(a.writer()) : null;
    final String k = view.keyName(a.key());
    final String kv = k + "=" + value(a.value());
    final String then = switch (a.kind()) {
      case ThinAirRead -> r + " read " + kv + ", but no transaction wrote " + value(a.value()) + " to " + k
          + " and it is not the initial value (" + value(view.initialValue()) + "): the value came from thin air";
      case AbortedRead -> r + " read " + kv + ", which only " + w
          + " wrote, and " + w + " aborted: an aborted write must never be visible (Adya G1a)";
      case IntermediateRead -> r + " read " + kv + ", which " + w + " wrote but then overwrote with " + k + "="
          + lastWrite(a.writer(), k) + " in the same transaction: only a transaction's last write of a key "
          + "may be visible (Adya G1b)";
      case FutureRead -> r + " read " + kv + " before writing " + kv + " itself: a transaction cannot observe "
          + "its own future write";
      case NotMyOwnWrite -> r + " wrote " + k + "=" + value(a.expected()) + " and later read " + kv
          + ": a transaction must observe its own writes";
      case NotMyLastWrite -> r + " wrote " + kv + ", then " + k + "=" + value(a.expected()) + ", and then read "
          + kv + ": a transaction must observe its own last write";
      case NonRepeatableReads -> r + " read " + k + "=" + value(a.expected()) + " and later " + kv
          + " without writing " + k + " in between: reads of one key in one transaction must agree";
    };
    return names.let() + "Then:\n  - " + then + ".\n"
        + "No dependency graph exists for such a history. " + levelsSentence(a.kind().violates())
        + " (" + a.kind().type() + ", " + a.kind() + ")";
  }

  private String levelsSentence(final Set<Level> all) {
    final Set<Level> levels = Level.shown(all, view.requestedLevels());
    final List<String> names = new ArrayList<>();
    // Strongest first, as explanations always said.
    for (final Level l : Level.strongestFirst(levels)) {
      names.add(l.name());
    }
    final String list = names.size() == 1 ? names.get(0)
        : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    return "This violates " + list + ".";
  }

  private static String value(final Long v) {
    return v == null ? "null" : v.toString();
  }
}
