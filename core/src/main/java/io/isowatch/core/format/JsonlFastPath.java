package io.isowatch.core.format;

import io.isowatch.core.history.InternedOps;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.Arrays;
import java.util.List;

/**
 * A scanner for the lines of a JSONL history as writers produce them, straight from the line's
 * characters to a {@link Transaction}: no JSON parser per line, no {@code String} for a key,
 * session, tenant or level already seen (they are looked up in the reader's {@link StringInterner}
 * by their characters).
 *
 * <p>It takes only what it can take with certainty, and answers {@code null} for anything else,
 * which {@link JsonlHistoryReader} then gives to the Jackson parser: the line decides, not this
 * class. It takes a line that is strict JSON, holds the known fields only (each at most once, in
 * any order, with JSON's spaces and tabs around the tokens), strings without escapes, control
 * characters or surrogates, integers of at most 18 digits without leading zeros, and every value
 * valid for its field; and whose strings, numbers, ops and nesting lie within the {@link
 * InputLimits}. Every such line is valid for the Jackson parser with the same meaning; every line
 * the Jackson parser refuses is refused by this class too, so errors and their messages are the
 * Jackson parser's. Not thread-safe (it shares the reader's interner).
 *
 * <p>The ops come as {@link InternedOps}: each key with its number in the reader's interner, so
 * that the checker finds its id of the key without looking its name up again.
 */
final class JsonlFastPath {
  private static final int MAX_DIGITS = 18;
  private static final int DEPTH = 3; // the line's object, "ops", one op
  private static final int LONGEST_NAME = "session".length();
  private static final Op[] NO_OPS = new Op[0];

  private final StringInterner strings;
  private final int maxStringChars;
  private final int maxNumberChars;
  private final int maxOpsPerTxn;
  private final boolean enabled;

  private char[] c;
  private int pos;
  private int end;
  private long number;
  private int strFrom;
  private int strTo;
  private Op[] ops = new Op[16];
  private int[] keyNumbers = new int[16];
  /** The number of the key of the op {@link #op} returned last. */
  private int opKeyNumber;
  /** What this parser's key numbers are numbers in (its interner's numbering). */
  private final Object numbering = new Object();

  JsonlFastPath(final InputLimits limits, final StringInterner strings) {
    this.strings = strings;
    this.maxStringChars = limits.maxStringChars();
    this.maxNumberChars = limits.maxNumberChars();
    this.maxOpsPerTxn = limits.maxOpsPerTxn();
    // Limits so low that a plain line may break them: let the Jackson parser apply them.
    this.enabled = limits.maxDepth() > DEPTH && limits.maxStringChars() > LONGEST_NAME
        && limits.maxNumberChars() > MAX_DIGITS + 1;
  }

  /** The transaction on {@code chars[from, to)}, or null when this line is for the Jackson parser. */
  Transaction parse(final char[] chars, final int from, final int to, final int lineNo) {
    if (!enabled) {
      return null;
    }
    this.c = chars;
    this.pos = from;
    this.end = to;
    try {
      return transaction(lineNo);
    } finally {
      this.c = null;
    }
  }

  private Transaction transaction(final int lineNo) {
    skipSpace();
    if (!take('{')) {
      return null;
    }
    String session = null;
    String txn = null;
    TxnStatus status = null;
    long seq = Transaction.NO_SEQ;
    long start = Transaction.NO_TIME;
    long endTime = Transaction.NO_TIME;
    List<Op> opList = null;
    String tenant = null;
    String level = null;
    int seen = 0;
    skipSpace();
    if (!take('}')) {
      while (true) {
        final int field = fieldName();
        if (field < 0 || (seen & (1 << field)) != 0) {
          return null; // unknown or repeated field
        }
        seen |= 1 << field;
        skipSpace();
        switch (field) {
          case F_SESSION -> {
            if (!string()) {
              return null;
            }
            session = strings.intern(c, strFrom, strTo);
          }
          case F_TXN -> {
            if (!string()) {
              return null;
            }
            txn = new String(c, strFrom, strTo - strFrom);
          }
          case F_STATUS -> {
            if (!string() || (status = status()) == null) {
              return null;
            }
          }
          case F_SEQ -> {
            if (takeNull()) {
              seq = Transaction.NO_SEQ;
            } else if (!integer() || number < 0) {
              return null;
            } else {
              seq = number;
            }
          }
          case F_START, F_END -> {
            long t = Transaction.NO_TIME;
            if (!takeNull()) {
              if (!integer()) {
                return null;
              }
              t = number;
            }
            if (field == F_START) {
              start = t;
            } else {
              endTime = t;
            }
          }
          case F_OPS -> {
            if ((opList = ops()) == null) {
              return null;
            }
          }
          case F_TENANT, F_LEVEL -> {
            String s = null;
            if (!takeNull()) {
              if (!string()) {
                return null;
              }
              s = strings.intern(c, strFrom, strTo);
            }
            if (field == F_TENANT) {
              tenant = s;
            } else {
              level = s;
            }
          }
          default -> {
            return null;
          }
        }
        skipSpace();
        if (take('}')) {
          break;
        }
        if (!take(',')) {
          return null;
        }
        skipSpace();
      }
    }
    skipSpace();
    if (pos != end || session == null || txn == null || status == null || opList == null) {
      return null;
    }
    return new Transaction(txn, session, seq, status, start, endTime, opList, tenant, level, lineNo);
  }

  private static final int F_SESSION = 0;
  private static final int F_TXN = 1;
  private static final int F_STATUS = 2;
  private static final int F_SEQ = 3;
  private static final int F_START = 4;
  private static final int F_END = 5;
  private static final int F_OPS = 6;
  private static final int F_TENANT = 7;
  private static final int F_LEVEL = 8;
  private static final int O_T = 0;
  private static final int O_K = 1;
  private static final int O_V = 2;

  /** A known field name and its colon: its number, or -1. */
  private int fieldName() {
    if (!string() || !colon()) {
      return -1;
    }
    final int n = strTo - strFrom;
    return switch (n) {
      case 3 -> is("txn") ? F_TXN : is("seq") ? F_SEQ : is("end") ? F_END : is("ops") ? F_OPS : -1;
      case 5 -> is("start") ? F_START : is("level") ? F_LEVEL : -1;
      case 6 -> is("status") ? F_STATUS : is("tenant") ? F_TENANT : -1;
      case 7 -> is("session") ? F_SESSION : -1;
      default -> -1;
    };
  }

  private boolean colon() {
    skipSpace();
    return take(':');
  }

  /** Whether the last string is {@code s}. */
  private boolean is(final String s) {
    if (strTo - strFrom != s.length()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (c[strFrom + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private TxnStatus status() {
    if (is("committed")) {
      return TxnStatus.COMMITTED;
    }
    if (is("aborted")) {
      return TxnStatus.ABORTED;
    }
    return is("unknown") ? TxnStatus.UNKNOWN : null;
  }

  /** The ops array, or null. */
  private List<Op> ops() {
    if (!take('[')) {
      return null;
    }
    int n = 0;
    skipSpace();
    if (!take(']')) {
      while (true) {
        if (n == maxOpsPerTxn) {
          return null;
        }
        final Op op = op();
        if (op == null) {
          return null;
        }
        if (n == ops.length) {
          ops = Arrays.copyOf(ops, n * 2);
          keyNumbers = Arrays.copyOf(keyNumbers, n * 2);
        }
        keyNumbers[n] = opKeyNumber;
        ops[n++] = op;
        skipSpace();
        if (take(']')) {
          break;
        }
        if (!take(',')) {
          return null;
        }
        skipSpace();
      }
    }
    final List<Op> list = n == 0 ? List.of() : new InternedOps(Arrays.copyOf(ops, n), Arrays.copyOf(keyNumbers, n), numbering);
    Arrays.fill(ops, 0, n, null);
    return list;
  }

  /** One {@code {"t":…,"k":…,"v":…}}, or null. */
  private Op op() {
    if (!take('{')) {
      return null;
    }
    OpType type = null;
    String key = null;
    Long value = null;
    int seen = 0;
    skipSpace();
    if (take('}')) {
      return null;
    }
    while (true) {
      if (!string() || strTo - strFrom != 1) {
        return null;
      }
      final char name = c[strFrom];
      final int field = name == 't' ? O_T : name == 'k' ? O_K : name == 'v' ? O_V : -1;
      if (field < 0 || (seen & (1 << field)) != 0 || !colon()) {
        return null;
      }
      seen |= 1 << field;
      skipSpace();
      switch (field) {
        case O_T -> {
          if (!string() || strTo - strFrom != 1) {
            return null;
          }
          final char t = c[strFrom];
          type = t == 'r' ? OpType.READ : t == 'w' ? OpType.WRITE : t == 'a' ? OpType.APPEND : null;
          if (type == null) {
            return null;
          }
        }
        case O_K -> {
          if (!string()) {
            return null;
          }
          key = strings.intern(c, strFrom, strTo);
          opKeyNumber = strings.lastNumber();
        }
        default -> {
          if (!takeNull()) {
            if (!integer()) {
              return null;
            }
            value = number;
          }
        }
      }
      skipSpace();
      if (take('}')) {
        break;
      }
      if (!take(',')) {
        return null;
      }
      skipSpace();
    }
    if (type == null || key == null || (type != OpType.READ && value == null)) {
      return null;
    }
    return new Op(type, key, value);
  }

  /** A string without escapes, control characters or surrogates: sets strFrom/strTo, or false. */
  private boolean string() {
    if (!take('"')) {
      return false;
    }
    final int from = pos;
    final int limit = Math.min(end, from + maxStringChars);
    for (int i = from; i < limit; i++) {
      final char ch = c[i];
      if (ch == '"') {
        strFrom = from;
        strTo = i;
        pos = i + 1;
        return true;
      }
      if (ch < 0x20 || ch == '\\' || Character.isSurrogate(ch)) {
        return false;
      }
    }
    return false; // unterminated, or as long as the limit
  }

  /** A JSON integer of at most 18 digits, no leading zero, not followed by a fraction: sets number, or false. */
  private boolean integer() {
    int i = pos;
    final boolean negative = i < end && c[i] == '-';
    if (negative) {
      i++;
    }
    final int digits = i;
    long v = 0;
    while (i < end && c[i] >= '0' && c[i] <= '9') {
      v = v * 10 + (c[i] - '0');
      i++;
    }
    final int n = i - digits;
    if (n == 0 || n > MAX_DIGITS || (n > 1 && c[digits] == '0')) {
      return false;
    }
    if (i < end) {
      final char next = c[i];
      if (next != ',' && next != '}' && next != ']' && next != ' ' && next != '\t') {
        return false; // a fraction, an exponent, or something stuck to the number
      }
    }
    number = negative ? -v : v;
    pos = i;
    return true;
  }

  private boolean takeNull() {
    if (pos + 4 <= end && c[pos] == 'n' && c[pos + 1] == 'u' && c[pos + 2] == 'l' && c[pos + 3] == 'l') {
      pos += 4;
      return true;
    }
    return false;
  }

  private boolean take(final char ch) {
    if (pos < end && c[pos] == ch) {
      pos++;
      return true;
    }
    return false;
  }

  private void skipSpace() {
    while (pos < end && (c[pos] == ' ' || c[pos] == '\t')) {
      pos++;
    }
  }
}
