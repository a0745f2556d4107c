package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Writes the MTC/PolySI/Plume text format that {@link TextHistoryReader} reads: one line {@code
 * r(key,value,session,txn)} or {@code w(key,value,session,txn)} per operation, the operations of a
 * transaction on consecutive lines in program order, each session's transactions in session order.
 *
 * <p>The format has only committed transactions, integer keys and values, integer ids and no
 * clocks, so the write is lossy in these documented ways, all counted in the returned {@link
 * WriteReport}:
 *
 * <ul>
 *   <li>aborted and unknown transactions are left out (the {@code -1} convention of Plume and
 *       IsoVista is not written: PolySI's loader rejects it), as are transactions without
 *       operations;
 *   <li>start and end times, tenants and levels are not written; {@code seq} is not written but
 *       orders each session's transactions;
 *   <li>sessions and transaction ids are kept when all of them are non-negative decimal integers
 *       (so text histories round-trip unchanged); otherwise sessions are numbered from 1 in order
 *       of appearance and transactions from 1 in output order.
 * </ul>
 *
 * <p>What the format cannot express at all is refused with an {@link UnwritableHistoryException}
 * before anything is written: keys that are not non-negative decimal integers (renaming keys
 * would make the output unreadable against the database), negative values (every public reader
 * accepts only {@code \d+}), and reads of {@code null} (the format's initial value is 0, so an
 * absent key has no spelling).
 */
public final class TextHistoryWriter {
  private static final Pattern CANONICAL_NATURAL = Pattern.compile("0|[1-9][0-9]{0,18}");

  /** Writes the committed transactions of {@code history}; flushes but does not close {@code out}. */
  public WriteReport write(final History history, final Writer out) throws IOException {
    final Selection sel = select(history);
    final List<Transaction> ordered = inSessionOrder(sel.kept);
    final List<String> sessions = sessionNames(ordered);
    final List<String> ids = txnIds(ordered);
    final StringBuilder line = new StringBuilder(48);
    for (int i = 0; i < ordered.size(); i++) {
      final String s = sessions.get(i);
      final String id = ids.get(i);
      for (final Op op : ordered.get(i).ops()) {
        line.setLength(0);
        line.append(op.type().code()).append('(').append(op.key()).append(',').append(op.value())
            .append(',').append(s).append(',').append(id).append(")\n");
        out.append(line);
      }
    }
    out.flush();
    final boolean renumbered =
        !sessions.equals(names(ordered, Transaction::session)) || !ids.equals(names(ordered, Transaction::id));
    return new WriteReport(ordered.size(), sel.aborted, sel.unknown, sel.empty, sel.timed, sel.tagged, renumbered);
  }

  private static Selection select(final History history) {
    final Selection sel = new Selection();
    for (final Transaction t : history.transactions()) {
      if (t.status() == TxnStatus.ABORTED) {
        sel.aborted++;
      } else if (t.status() == TxnStatus.UNKNOWN) {
        sel.unknown++;
      } else if (t.ops().isEmpty()) {
        sel.empty++;
      } else {
        requireRepresentable(t);
        sel.kept.add(t);
        if (t.start() != Transaction.NO_TIME || t.end() != Transaction.NO_TIME) {
          sel.timed++;
        }
        if (t.tenant() != null || t.level() != null) {
          sel.tagged++;
        }
      }
    }
    return sel;
  }

  private static void requireRepresentable(final Transaction t) {
    for (final Op op : t.ops()) {
      if (op.isAppend() || op.isListRead()) {
        throw new UnwritableHistoryException(where(t) + op + " is a list-append operation; the text format has "
            + "register reads and writes only (write JSONL instead)");
      }
      if (!isNatural(op.key())) {
        throw new UnwritableHistoryException(where(t) + "key '" + op.key()
            + "' is not a non-negative decimal integer; the text format has integer keys only");
      }
      if (op.value() == null) {
        throw new UnwritableHistoryException(where(t) + "read of key " + op.key()
            + " returned null; the text format cannot express an absent key (its initial value is 0)");
      }
      if (op.value() < 0) {
        throw new UnwritableHistoryException(where(t) + "value " + op.value() + " of key " + op.key()
            + " is negative; the text format has non-negative values only");
      }
    }
  }

  private static String where(final Transaction t) {
    return "transaction '" + t.id() + "'" + (t.line() > 0 ? " (line " + t.line() + ")" : "") + ": ";
  }

  private static boolean isNatural(final String s) {
    if (!CANONICAL_NATURAL.matcher(s).matches()) {
      return false;
    }
    try {
      Long.parseLong(s);
      return true;
    } catch (final NumberFormatException e) {
      return false; // 19 digits beyond Long.MAX_VALUE
    }
  }

  /**
   * Source order, except that within a session the transactions follow their {@code seq} when all
   * of them have one: the text format's only session order is file order. The interleaving of
   * sessions is kept, so a history already in session order is written in source order.
   */
  private static List<Transaction> inSessionOrder(final List<Transaction> txns) {
    final Map<String, List<Transaction>> bySession = new LinkedHashMap<>();
    for (final Transaction t : txns) {
      bySession.computeIfAbsent(t.session(), k -> new ArrayList<>()).add(t);
    }
    final Map<String, Deque<Transaction>> queues = new HashMap<>();
    for (final Map.Entry<String, List<Transaction>> e : bySession.entrySet()) {
      final List<Transaction> session = e.getValue();
      if (session.stream().allMatch(Transaction::hasSeq)) {
        session.sort(Comparator.comparingLong(Transaction::seq));
      }
      queues.put(e.getKey(), new ArrayDeque<>(session));
    }
    final List<Transaction> ordered = new ArrayList<>(txns.size());
    for (final Transaction t : txns) {
      ordered.add(queues.get(t.session()).poll());
    }
    return ordered;
  }

  private static List<String> names(final List<Transaction> txns, final Function<Transaction, String> name) {
    final List<String> names = new ArrayList<>(txns.size());
    for (final Transaction t : txns) {
      names.add(name.apply(t));
    }
    return names;
  }

  /** Kept when all are canonical natural numbers, else 1, 2, 3… in order of appearance. */
  private static List<String> sessionNames(final List<Transaction> txns) {
    final List<String> names = names(txns, Transaction::session);
    if (names.stream().allMatch(TextHistoryWriter::isNatural)) {
      return names;
    }
    final Map<String, String> numbers = new HashMap<>();
    final List<String> renamed = new ArrayList<>(names.size());
    for (final String n : names) {
      renamed.add(numbers.computeIfAbsent(n, k -> Integer.toString(numbers.size() + 1)));
    }
    return renamed;
  }

  /** Kept when all are distinct canonical natural numbers, else 1, 2, 3… in output order. */
  private static List<String> txnIds(final List<Transaction> txns) {
    final List<String> ids = names(txns, Transaction::id);
    final Set<String> distinct = new HashSet<>(ids);
    if (distinct.size() == ids.size() && ids.stream().allMatch(TextHistoryWriter::isNatural)) {
      return ids;
    }
    final List<String> renamed = new ArrayList<>(ids.size());
    for (int i = 1; i <= ids.size(); i++) {
      renamed.add(Integer.toString(i));
    }
    return renamed;
  }

  /** The transactions to write and what was left out. */
  private static final class Selection {
    final List<Transaction> kept = new ArrayList<>();
    int aborted;
    int unknown;
    int empty;
    int timed;
    int tagged;
  }
}
