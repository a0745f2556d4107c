package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The checkpoint codec of the core's records: transactions, anomalies, and the enum codes. The
 * codes are part of the format (version 1): each table below lists the constants in code order;
 * never reorder one, only append (and then the format version need not change, as a reader of
 * an older release refuses the unknown code).
 */
final class CheckpointRecords {
  private static final Level[] LEVELS = {Level.SSER, Level.SER, Level.SI};
  private static final TxnStatus[] STATUSES = {TxnStatus.COMMITTED, TxnStatus.ABORTED, TxnStatus.UNKNOWN};
  private static final EdgeKind[] EDGE_KINDS = {EdgeKind.SO, EdgeKind.RT, EdgeKind.WR, EdgeKind.WW, EdgeKind.RW};
  private static final Verdict[] VERDICTS = {Verdict.SATISFIED, Verdict.VIOLATED, Verdict.UNKNOWN};

  // Transaction flags.
  private static final int HAS_SEQ = 1;
  private static final int HAS_START = 1 << 1;
  private static final int HAS_END = 1 << 2;
  private static final int HAS_TENANT = 1 << 3;
  private static final int HAS_LEVEL = 1 << 4;
  private static final int STATUS_SHIFT = 5;
  // Op header: the low two bits, then the key's dictionary entry follows.
  private static final int WRITE = 1;
  private static final int NULL_VALUE = 2;
  // Anomaly: set in its levels byte when its read follows its explanation. A reader that predates
  // it refuses the mask (corrupt level mask), as it does an unknown code.
  private static final int HAS_READ = 1 << 7;

  private CheckpointRecords() {}

  /**
   * A transaction: flags byte (seq, start, end, tenant, level present; status code in bits 5-6),
   * id, session name, seq, start (as the difference to {@code base}), end (as the difference to
   * start when both are known), tenant, level, line, ops (each a header byte, the key name, the
   * value unless null). Returns the base for the next transaction: its start, if it has one.
   * Transactions written in π order have close starts, so a difference takes 2-3 bytes, not 8.
   */
  static long writeTxn(final CheckpointOutput out, final Transaction t, final long base) {
    final boolean start = t.start() != Transaction.NO_TIME;
    final boolean end = t.end() != Transaction.NO_TIME;
    out.rawByte((t.hasSeq() ? HAS_SEQ : 0) | (start ? HAS_START : 0) | (end ? HAS_END : 0)
        | (t.tenant() != null ? HAS_TENANT : 0) | (t.level() != null ? HAS_LEVEL : 0)
        | code(STATUSES, t.status()) << STATUS_SHIFT);
    out.string(t.id());
    out.name(t.session());
    if (t.hasSeq()) {
      out.signed(t.seq());
    }
    if (start) {
      out.signed(t.start() - base);
    }
    if (end) {
      // Differences wrap in two's complement, so any pair of times round-trips.
      out.signed(start ? t.end() - t.start() : t.end());
    }
    if (t.tenant() != null) {
      out.name(t.tenant());
    }
    if (t.level() != null) {
      out.name(t.level());
    }
    out.signed(t.line());
    out.unsigned(t.ops().size());
    for (final Op op : t.ops()) {
      out.rawByte((op.isWrite() ? WRITE : 0) | (op.value() == null ? NULL_VALUE : 0));
      out.name(op.key());
      if (op.value() != null) {
        out.signed(op.value());
      }
    }
    return start ? t.start() : base;
  }

  /** Reads a transaction written with this base (the start of the one before, or 0). */
  static Transaction readTxn(final CheckpointInput in, final long base) {
    final int flags = in.rawByte();
    if (flags >>> STATUS_SHIFT >= STATUSES.length) {
      throw new CheckpointFormatException("corrupt checkpoint: transaction status code " + (flags >>> STATUS_SHIFT));
    }
    final TxnStatus status = STATUSES[flags >>> STATUS_SHIFT];
    final String id = in.string();
    final String session = in.name();
    final long seq = (flags & HAS_SEQ) != 0 ? in.signed() : Transaction.NO_SEQ;
    final long start = (flags & HAS_START) != 0 ? base + in.signed() : Transaction.NO_TIME;
    final long end = (flags & HAS_END) == 0 ? Transaction.NO_TIME
        : start != Transaction.NO_TIME ? start + in.signed() : in.signed();
    final String tenant = (flags & HAS_TENANT) != 0 ? in.name() : null;
    final String level = (flags & HAS_LEVEL) != 0 ? in.name() : null;
    final long line = in.signed();
    if (line < Integer.MIN_VALUE || line > Integer.MAX_VALUE) {
      throw new CheckpointFormatException("corrupt checkpoint: line " + line + " of transaction " + id);
    }
    final int n = in.count(2, "operations");
    final List<Op> ops = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      final int header = in.rawByte();
      if (header > (WRITE | NULL_VALUE) || header == (WRITE | NULL_VALUE)) {
        throw new CheckpointFormatException("corrupt checkpoint: op header " + header + " in transaction " + id);
      }
      final String key = in.name();
      final Long value = (header & NULL_VALUE) != 0 ? null : in.signed();
      ops.add(new Op((header & WRITE) != 0 ? OpType.WRITE : OpType.READ, key, value));
    }
    return new Transaction(id, session, seq, status, start, end, ops, tenant, level, (int) line);
  }

  /**
   * An anomaly: type, name, the levels it violates (bit 7 set when it has a read), its
   * transactions, its cycle (each edge: from and to ids, kind code, key, value), its explanation
   * and, if it has one, its read (transaction id, op index, key, value).
   */
  static void writeAnomaly(final CheckpointOutput out, final Anomaly a) {
    out.name(a.type());
    out.nullableName(a.name());
    out.rawByte(levels(a.violates()) | (a.read() != null ? HAS_READ : 0));
    out.unsigned(a.transactions().size());
    for (final Transaction t : a.transactions()) {
      writeTxn(out, t, 0);
    }
    out.unsigned(a.cycle().size());
    for (final Edge e : a.cycle()) {
      out.string(e.from());
      out.string(e.to());
      out.rawByte(code(EDGE_KINDS, e.kind()));
      out.nullableName(e.key());
      out.nullableSigned(e.value());
    }
    out.string(a.explanation());
    if (a.read() != null) {
      out.string(a.read().txn());
      out.unsigned(a.read().op());
      out.name(a.read().key());
      out.nullableSigned(a.read().value());
    }
  }

  static Anomaly readAnomaly(final CheckpointInput in) {
    final String type = in.name();
    final String name = in.nullableName();
    final int mask = in.rawByte();
    final Set<Level> violates = levels(mask & ~HAS_READ);
    final int n = in.count(4, "anomaly transactions");
    final List<Transaction> txns = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      txns.add(readTxn(in, 0));
    }
    final int m = in.count(5, "cycle edges");
    final List<Edge> cycle = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      final String from = in.string();
      final String to = in.string();
      final EdgeKind kind = decode(EDGE_KINDS, in.rawByte(), "edge kind");
      cycle.add(new Edge(from, to, kind, in.nullableName(), in.nullableSigned()));
    }
    final String explanation = in.string();
    if ((mask & HAS_READ) == 0) {
      return new Anomaly(type, name, violates, txns, cycle, explanation);
    }
    final String txn = in.string();
    final long op = in.unsigned();
    if (op > Integer.MAX_VALUE) {
      throw new CheckpointFormatException("corrupt checkpoint: read op " + op);
    }
    return new Anomaly(type, name, violates, txns, cycle, explanation,
        new AnomalyRead(txn, (int) op, in.name(), in.nullableSigned()));
  }

  /** A set of levels as a bit mask of their codes. */
  static int levels(final Set<Level> levels) {
    int mask = 0;
    for (final Level l : levels) {
      mask |= 1 << code(LEVELS, l);
    }
    return mask;
  }

  static EnumSet<Level> levels(final int mask) {
    if (mask >>> LEVELS.length != 0) {
      throw new CheckpointFormatException("corrupt checkpoint: level mask " + mask);
    }
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    for (int i = 0; i < LEVELS.length; i++) {
      if ((mask & 1 << i) != 0) {
        out.add(LEVELS[i]);
      }
    }
    return out;
  }

  static int level(final Level l) {
    return code(LEVELS, l);
  }

  static Level level(final int code) {
    return decode(LEVELS, code, "level");
  }

  static int verdict(final Verdict v) {
    return code(VERDICTS, v);
  }

  static Verdict verdict(final int code) {
    return decode(VERDICTS, code, "verdict");
  }

  private static <E> int code(final E[] table, final E value) {
    for (int i = 0; i < table.length; i++) {
      if (table[i] == value) {
        return i;
      }
    }
    throw new IllegalStateException(value + " has no checkpoint code: add it to the end of its table");
  }

  private static <E> E decode(final E[] table, final int code, final String what) {
    if (code < 0 || code >= table.length) {
      throw new CheckpointFormatException("corrupt checkpoint: " + what + " code " + code);
    }
    return table[code];
  }
}
