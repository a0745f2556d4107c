package io.isowatch.core.testkit;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compact history language for tests. One transaction per line, in session order:
 *
 * <pre>
 *   T1 s1 r(x,0) w(x,1)
 *   T2 s2 r(x,1) r(y,null) aborted
 *   T3 s1 r(x,0) w(x,2) @10..20
 * </pre>
 *
 * <p>Each line is {@code <txn> <session> <ops…> [committed|aborted|unknown] [@start..end]
 * [seq=N]}; ops are {@code r(key,value)} and {@code w(key,value)}, and a read may return {@code
 * null}; list-append histories have {@code a(key,element)} and list reads {@code r(key,[1,2])}. Blank lines and {@code #} comments are skipped. The status defaults to committed; times
 * and seq default to none (then line order within a session is session order). Either time may be
 * left out, e.g. {@code @10..} for a transaction whose end the client never saw.
 *
 * <p>{@link #format(History)} writes a history back in this language, so that a generated history
 * can be printed and pasted into a test.
 */
public final class HistoryDsl {
  private static final Pattern OP = Pattern.compile("([rwa])\\(([^,()\\s]+),\\s*(-?\\d+|null|\\[[-\\d,\\s]*\\])\\)");
  private static final Pattern TIME = Pattern.compile("@(-?\\d+)?\\.\\.(-?\\d+)?");
  private static final Pattern SEQ = Pattern.compile("\\bseq=(\\d+)");

  private HistoryDsl() {}

  public static History history(final String text) {
    final History.Builder b = History.builder();
    int lineNo = 0;
    for (final String raw : text.split("\n")) {
      lineNo++;
      final String line = raw.replaceFirst("#.*", "").trim();
      if (line.isEmpty()) {
        continue;
      }
      b.add(txn(line, lineNo));
    }
    return b.build();
  }

  private static List<Long> list(final String text) {
    final List<Long> elements = new ArrayList<>();
    for (final String e : text.substring(1, text.length() - 1).split(",")) {
      if (!e.isBlank()) {
        elements.add(Long.parseLong(e.trim()));
      }
    }
    return elements;
  }

  private static Transaction txn(final String line, final int lineNo) {
    final String[] head = line.split("\\s+", 3);
    if (head.length < 2) {
      throw new IllegalArgumentException("line " + lineNo + ": expected '<txn> <session> ops…': " + line);
    }
    final String rest = head.length == 3 ? head[2] : "";
    final List<Op> ops = new ArrayList<>();
    final Matcher m = OP.matcher(rest);
    while (m.find()) {
      if (m.group(3).startsWith("[")) {
        ops.add(Op.readList(m.group(2), list(m.group(3))));
        continue;
      }
      final Long v = m.group(3).equals("null") ? null : Long.parseLong(m.group(3));
      ops.add(switch (m.group(1)) {
        case "r" -> Op.read(m.group(2), v);
        case "a" -> Op.append(m.group(2), v);
        default -> Op.write(m.group(2), v);
      });
    }
    TxnStatus status = TxnStatus.COMMITTED;
    if (rest.contains("aborted")) {
      status = TxnStatus.ABORTED;
    } else if (rest.contains("unknown")) {
      status = TxnStatus.UNKNOWN;
    }
    long start = Transaction.NO_TIME;
    long end = Transaction.NO_TIME;
    final Matcher t = TIME.matcher(rest);
    if (t.find()) {
      start = t.group(1) == null ? Transaction.NO_TIME : Long.parseLong(t.group(1));
      end = t.group(2) == null ? Transaction.NO_TIME : Long.parseLong(t.group(2));
    }
    long seq = Transaction.NO_SEQ;
    final Matcher q = SEQ.matcher(rest);
    if (q.find()) {
      seq = Long.parseLong(q.group(1));
    }
    return new Transaction(head[0], head[1], seq, status, start, end, ops, null, null, lineNo);
  }

  /**
   * Writes a history in this language, one transaction per line in source order. Parsing the
   * text gives back an equal history except for {@link Transaction#line()}, tenant and level.
   */
  public static String format(final History history) {
    final StringBuilder sb = new StringBuilder();
    for (final Transaction t : history.transactions()) {
      sb.append(formatTxn(t)).append('\n');
    }
    return sb.toString();
  }

  private static String formatTxn(final Transaction t) {
    final StringBuilder sb = new StringBuilder().append(t.id()).append(' ').append(t.session());
    for (final Op op : t.ops()) {
      sb.append(' ').append(op);
    }
    if (t.status() != TxnStatus.COMMITTED) {
      sb.append(' ').append(t.status().wire());
    }
    if (t.start() != Transaction.NO_TIME || t.end() != Transaction.NO_TIME) {
      sb.append(" @").append(t.start() == Transaction.NO_TIME ? "" : t.start()).append("..")
          .append(t.end() == Transaction.NO_TIME ? "" : t.end());
    }
    if (t.hasSeq()) {
      sb.append(" seq=").append(t.seq());
    }
    return sb.toString();
  }
}
