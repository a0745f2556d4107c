package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the text format of MTC, PolySI and Plume: one operation per line, {@code
 * r(key,value,session,txn)} or {@code w(key,value,session,txn)}.
 *
 * <p>What the public tools do, and so what this reader does (learned from PolySI's and IsoVista's
 * {@code TextHistoryLoader}, Plume's loader and AWDIT's {@code parse_plume_history}; MTC's own
 * repository was not available to read):
 *
 * <ul>
 *   <li>Keys, values, sessions and transaction ids are decimal integers (the public regex is {@code
 *       ([rw])\((\d++),(\d++),(\d++),(-?\d++)\)}). Keys become their canonical decimal strings
 *       ({@code 007} reads as key {@code 7}); this reader also accepts negative keys and values and
 *       spaces around the numbers.
 *   <li>Transaction ids are global, not per session: every loader looks a transaction up by its id
 *       alone. A transaction's id is therefore kept as is ({@code "17"}). Lines of one transaction
 *       are normally consecutive; non-consecutive lines with the same id join the same transaction,
 *       as in the public loaders. An id seen again in another session is an error.
 *   <li>Ops of a transaction are in program order; a session's transactions are in file order
 *       (first appearance), which is session order.
 *   <li>Every transaction is committed, without timestamps, except that Plume and IsoVista write
 *       operations of aborted transactions with transaction id {@code -1}: consecutive {@code -1}
 *       lines of one session are read as one aborted transaction with id {@code aborted-L<line of
 *       its first op>}.
 *   <li>There is an implicit initial transaction writing 0 to every key. Some files (IsoVista's)
 *       also spell it out as their first transaction, made only of writes of 0; such a first
 *       transaction is dropped (and logged), since the checker adds the implicit one and a second
 *       writer of the initial value would be invalid.
 * </ul>
 *
 * <p>Blank lines and lines starting with {@code #} are skipped (an IsoWatch extension, for
 * comments in fixtures). Op lines as writers write them are read by {@link TextFastPath} without the
 * regular expression; it declines every other line to it. Not thread-safe.
 */
public final class TextHistoryReader {
  private static final Logger LOG = LoggerFactory.getLogger(TextHistoryReader.class);
  private static final Pattern LINE =
      Pattern.compile("\\s*([rw])\\(\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*\\)\\s*");
  /** The transaction id Plume and IsoVista give to operations of aborted transactions. */
  private static final long ABORTED_TXN = -1L;
  private final StringInterner strings = new StringInterner();
  private final InputLimits limits;
  private final boolean fast;
  private long scanned;

  /** A reader with the default {@link InputLimits}. */
  public TextHistoryReader() {
    this(InputLimits.defaults());
  }

  public TextHistoryReader(final InputLimits limits) {
    this(limits, true);
  }

  /** With {@code fast} false, every line is matched by the regular expression (for tests). */
  TextHistoryReader(final InputLimits limits, final boolean fast) {
    this.limits = limits;
    this.fast = fast;
  }

  /** How many op lines {@link TextFastPath} took so far (for tests). */
  long scanned() {
    return scanned;
  }

  /** Reads a whole text history. The reader is consumed but not closed. */
  public History read(final Reader in) throws IOException, InvalidHistoryException {
    return read(in, null);
  }

  /**
   * As {@link #read(Reader)}, and gives {@code out} each transaction once a line of another one
   * follows its last line (or the input ends), in the order of their first lines, while reading the
   * rest (the reader thread of {@link HistoryIO}). Returns the history {@link #read(Reader)} returns,
   * which holds the very objects given, in the order given, unless a transaction's lines are not
   * consecutive (a later line joins one already given) or the first transaction is an explicit
   * initial one (dropped): then some object given is not in it, which a caller that must see the
   * history's own transactions checks by identity at the end ({@code InOrderFeed} does).
   */
  History read(final Reader in, final JsonlReadAhead.Emit each) throws IOException, InvalidHistoryException {
    // Set to null once the caller wants nothing more.
    JsonlReadAhead.Emit out = each;
    final LineSource lines = new LineSource(in, limits);
    final TextFastPath scanner = fast ? new TextFastPath(strings) : null;
    final List<Pending> order = new ArrayList<>();
    final PendingById byId = new PendingById();
    Pending aborted = null;
    // The transaction of the previous op line: consecutive lines of one transaction skip the lookup.
    Pending last = null;
    while (lines.advance()) {
      final int lineNo = lines.lineNo();
      final boolean isRead;
      final long value;
      final long session;
      final long txnId;
      final String key;
      if (scanner != null && scanner.scan(lines.chars(), lines.from(), lines.to())) {
        scanned++;
        isRead = scanner.read;
        key = scanner.key;
        value = scanner.value;
        session = scanner.session;
        txnId = scanner.txn;
      } else {
        final String line = new String(lines.chars(), lines.from(), lines.to() - lines.from());
        final String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        final Parsed p = parse(line, lineNo);
        isRead = p.read;
        key = p.key;
        value = p.value;
        session = p.session;
        txnId = p.txn;
      }
      if (txnId < 0 && txnId != ABORTED_TXN) {
        throw new InvalidHistoryException(
            lineNo, "txn must be >= 0, or -1 for an operation of an aborted transaction, got " + txnId);
      }
      final Op op = isRead ? new Op(OpType.READ, key, value) : new Op(OpType.WRITE, key, value);
      if (txnId == ABORTED_TXN) {
        if (out != null && last != null && !give(last, out)) {
          out = null;
        }
        last = null;
        if (aborted == null || aborted.sessionId != session) {
          if (out != null && aborted != null && !give(aborted, out)) {
            out = null;
          }
          aborted = new Pending("aborted-L" + lineNo, session, name(session), TxnStatus.ABORTED, lineNo);
          order.add(aborted);
        }
        add(aborted, op, lineNo);
        continue;
      }
      if (out != null && aborted != null && !give(aborted, out)) {
        out = null;
      }
      aborted = null;
      if (out != null && last != null && last.txnId != txnId && !give(last, out)) {
        out = null;
      }
      Pending txn = last != null && last.txnId == txnId ? last : byId.get(txnId);
      if (txn == null) {
        txn = new Pending(Long.toString(txnId), session, name(session), TxnStatus.COMMITTED, lineNo);
        txn.txnId = txnId;
        byId.put(txnId, txn);
        order.add(txn);
      } else if (txn.sessionId != session) {
        throw new InvalidHistoryException(
            lineNo,
            "transaction " + txnId + " is in session " + txn.session + " (line " + txn.line
                + ") but this line puts it in session " + session);
      }
      last = txn;
      if (txn.given != null) {
        txn.given = null; // joined again after it was given: the history gets a new object
      }
      add(txn, op, lineNo);
    }
    if (out != null) {
      if (last != null && !give(last, out)) {
        out = null;
      }
      if (out != null && aborted != null) {
        give(aborted, out);
      }
    }
    return build(order);
  }

  /** Gives {@code p} as it stands (once); false when {@code out} wants nothing more. */
  private static boolean give(final Pending p, final JsonlReadAhead.Emit out) throws InvalidHistoryException {
    if (p.given != null || p.everGiven) {
      return true;
    }
    p.everGiven = true;
    p.given = p.transaction();
    return out.accept(p.given);
  }

  private String name(final long session) {
    return strings.intern(Long.toString(session));
  }

  private void add(final Pending txn, final Op op, final int lineNo) throws InvalidHistoryException {
    if (txn.ops.size() == limits.maxOpsPerTxn()) {
      throw InputLimits.exceeded(lineNo, "too many ops in transaction " + txn.id, InputLimits.MAX_OPS_PER_TXN,
          limits.maxOpsPerTxn());
    }
    txn.ops.add(op);
  }

  private History build(final List<Pending> order) throws InvalidHistoryException {
    final HistoryAccumulator acc = new HistoryAccumulator();
    for (int i = 0; i < order.size(); i++) {
      final Pending p = order.get(i);
      if (i == 0 && isExplicitInitial(p)) {
        LOG.info("Dropped the explicit initial transaction txn=[{}] line=[{}] writes=[{}]: the checker adds it",
            p.id, p.line, p.ops.size());
        continue;
      }
      acc.add(p.given != null ? p.given : p.transaction());
    }
    return acc.build();
  }

  private static boolean isExplicitInitial(final Pending p) {
    if (p.status != TxnStatus.COMMITTED || p.ops.isEmpty()) {
      return false;
    }
    for (final Op op : p.ops) {
      if (!op.isWrite() || op.value() != 0L) {
        return false;
      }
    }
    return true;
  }

  private Parsed parse(final String line, final int lineNo) throws InvalidHistoryException {
    final Matcher m = LINE.matcher(line);
    if (!m.matches()) {
      throw new InvalidHistoryException(
          lineNo, "expected r(key,value,session,txn) or w(key,value,session,txn) with integers, got '" + line.strip() + "'");
    }
    final long key = number(m.group(2), "key", lineNo);
    final long value = number(m.group(3), "value", lineNo);
    final long session = number(m.group(4), "session", lineNo);
    final long txn = number(m.group(5), "txn", lineNo);
    return new Parsed(m.group(1).equals("r"), strings.intern(Long.toString(key)), value, session, txn);
  }

  private static long number(final String digits, final String what, final int lineNo) throws InvalidHistoryException {
    try {
      return Long.parseLong(digits);
    } catch (final NumberFormatException e) {
      throw new InvalidHistoryException(lineNo, what + " " + digits + " is outside the 64-bit range");
    }
  }

  private record Parsed(boolean read, String key, long value, long session, long txn) {}

  /** A transaction whose ops are still being collected. */
  private static final class Pending {
    final String id;
    final long sessionId;
    final String session;
    final TxnStatus status;
    final int line;
    final List<Op> ops = new ArrayList<>(4);
    /** The numeric id of a committed transaction (an aborted one has none). */
    long txnId = ABORTED_TXN;
    /** The transaction given while reading, while no later line joined it; else null. */
    Transaction given;
    /** Whether it was given while reading (then it is not given again, even if joined later). */
    boolean everGiven;

    Transaction transaction() {
      return new Transaction(id, session, Transaction.NO_SEQ, status, Transaction.NO_TIME, Transaction.NO_TIME, ops,
          null, null, line);
    }

    Pending(final String id, final long sessionId, final String session, final TxnStatus status, final int line) {
      this.id = id;
      this.sessionId = sessionId;
      this.session = session;
      this.status = status;
      this.line = line;
    }
  }

  /** Committed transactions by their numeric id: open addressing, linear probing, no boxing. */
  private static final class PendingById {
    private long[] ids = new long[1024];
    private Pending[] txns = new Pending[1024];
    private int size;

    Pending get(final long id) {
      final int mask = ids.length - 1;
      for (int i = slot(id, mask); ; i = (i + 1) & mask) {
        final Pending p = txns[i];
        if (p == null || ids[i] == id) {
          return p;
        }
      }
    }

    void put(final long id, final Pending p) {
      if (2 * (size + 1) > ids.length) {
        grow();
      }
      insert(id, p);
      size++;
    }

    private void insert(final long id, final Pending p) {
      final int mask = ids.length - 1;
      int i = slot(id, mask);
      while (txns[i] != null) {
        i = (i + 1) & mask;
      }
      ids[i] = id;
      txns[i] = p;
    }

    private void grow() {
      final long[] oldIds = ids;
      final Pending[] oldTxns = txns;
      ids = new long[oldIds.length * 2];
      txns = new Pending[oldTxns.length * 2];
      for (int i = 0; i < oldIds.length; i++) {
        if (oldTxns[i] != null) {
          insert(oldIds[i], oldTxns[i]);
        }
      }
    }

    private static int slot(final long id, final int mask) {
      final long h = id * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32)) & mask;
    }
  }
}
