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
 * The reader of the core's records in checkpoint formats 1 and 2 (transactions, anomalies), and
 * the enum codes. The codes are part of those formats and of format 3, whose Avro enums list the
 * same constants in the same order: each table below lists the constants in code order; never
 * reorder one, only append. The writers of formats 1 and 2 are in test scope
 * ({@code LegacyCheckpointWriter}).
 */
final class CheckpointRecords {
  /**
   * The enum codes of the levels: formats 1 to 4 know the first three only (the one-byte masks of
   * formats 1 and 2 never hold more), format 5 appends the weak levels, format 6 MIXED.
   */
  private static final Level[] LEVELS = {Level.SSER, Level.SER, Level.SI, Level.PL2, Level.RC, Level.RA, Level.CC,
      Level.PC, Level.RR, Level.MIXED};
  /** How many levels the masks of formats 1 and 2 know. */
  private static final int MASK_LEVELS = 3;
  static final TxnStatus[] STATUSES = {TxnStatus.COMMITTED, TxnStatus.ABORTED, TxnStatus.UNKNOWN};
  static final EdgeKind[] EDGE_KINDS = {EdgeKind.SO, EdgeKind.RT, EdgeKind.WR, EdgeKind.WW, EdgeKind.RW};
  private static final Verdict[] VERDICTS = {Verdict.SATISFIED, Verdict.VIOLATED, Verdict.UNKNOWN};

  // Transaction flags.
  static final int HAS_SEQ = 1;
  static final int HAS_START = 1 << 1;
  static final int HAS_END = 1 << 2;
  static final int HAS_TENANT = 1 << 3;
  static final int HAS_LEVEL = 1 << 4;
  static final int STATUS_SHIFT = 5;
  // Op header: the low two bits, then the key's dictionary entry follows.
  static final int WRITE = 1;
  static final int NULL_VALUE = 2;
  // Anomaly: set in its levels byte when its read follows its explanation. A reader that predates
  // it refuses the mask (corrupt level mask), as it does an unknown code.
  static final int HAS_READ = 1 << 7;

  private CheckpointRecords() {}

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
      // Only the levels of the formats with masks (the test writer of formats 1 and 2 uses this).
      if (Level.CLASSIC.contains(l)) {
        mask |= 1 << code(LEVELS, l);
      }
    }
    return mask;
  }

  static EnumSet<Level> levels(final int mask) {
    if (mask >>> MASK_LEVELS != 0) {
      throw new CheckpointFormatException("corrupt checkpoint: level mask " + mask);
    }
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    for (int i = 0; i < MASK_LEVELS; i++) {
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

  static int status(final TxnStatus s) {
    return code(STATUSES, s);
  }

  static TxnStatus status(final int code) {
    return decode(STATUSES, code, "transaction status");
  }

  static int edgeKind(final EdgeKind k) {
    return code(EDGE_KINDS, k);
  }

  static EdgeKind edgeKind(final int code) {
    return decode(EDGE_KINDS, code, "edge kind");
  }

  static int verdict(final Verdict v) {
    return code(VERDICTS, v);
  }

  static Verdict verdict(final int code) {
    return decode(VERDICTS, code, "verdict");
  }

  static <E> int code(final E[] table, final E value) {
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
