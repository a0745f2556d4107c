package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Reads the key-value history format of TimeKiller (Chronos offline, Aion online): one JSON array
 * of transactions,
 *
 * <pre>
 * [{"tid": 67, "sid": 19, "sts": {"p": 1691420095436341, "l": 61}, "cts": {"p": 1691420095659914, "l": 18},
 *   "ops": [{"t": "w", "k": 7, "v": 2}, {"t": "r", "k": 8, "v": 3}]}]
 * </pre>
 *
 * <p>As TimeKiller reads it: {@code tid} and {@code sid} are integers or strings; {@code t} is
 * {@code r}, {@code w}, {@code read} or {@code write} in any case; {@code k} is a 64-bit integer;
 * {@code v} a 64-bit integer, or null or absent for a read of an absent key. Numbers may also be
 * given as decimal strings (TimeKiller's own sample writes {@code "p": "320316486"}). {@code sts}
 * and {@code cts} are the start and commit timestamps as hybrid logical clocks: {@code p} the
 * physical part, {@code l} the logical part, ordered by p then l. The format has no status: every
 * transaction is committed. Transactions are in session order. Other fields (Aion's {@code rtts})
 * are ignored.
 *
 * <p>Times: start = sts.p and end = cts.p converted from the physical unit to microseconds (start
 * rounded down, end up), by default treating p as microseconds, as in TimeKiller's README example.
 * The logical part is dropped: two clocks with equal physical parts then tie, which can only lose
 * real-time precedence, never invent it. A missing sts or cts leaves that time unknown.
 */
public final class AionHistoryReader {
  private final TimeUnit physicalUnit;
  private final InputLimits limits;
  private final StringInterner strings = new StringInterner();
  private final boolean fast;
  private long scanned;

  /** A reader treating the physical clock part as microseconds. */
  public AionHistoryReader() {
    this(TimeUnit.MICROSECONDS);
  }

  /** A reader treating the physical clock part as {@code physicalUnit} since the epoch. */
  public AionHistoryReader(final TimeUnit physicalUnit) {
    this(physicalUnit, InputLimits.defaults());
  }

  public AionHistoryReader(final TimeUnit physicalUnit, final InputLimits limits) {
    this(physicalUnit, limits, true);
  }

  /** With {@code fast} false, every transaction is read by Jackson (for tests). */
  AionHistoryReader(final TimeUnit physicalUnit, final InputLimits limits, final boolean fast) {
    this.physicalUnit = physicalUnit;
    this.limits = limits;
    this.fast = fast;
  }

  /** How many transactions {@link AionFastPath} took in the last read (for tests). */
  long scanned() {
    return scanned;
  }

  /**
   * Reads a whole history. The reader is consumed but not closed. Plain transactions are taken by
   * {@link AionFastPath}; from the first it does not take on, Jackson reads the rest.
   */
  public History read(final Reader in) throws IOException, InvalidHistoryException {
    final HistoryAccumulator acc = new HistoryAccumulator();
    read(in, t -> {
      acc.add(t);
      return true;
    });
    return acc.build();
  }

  /**
   * Reads a whole history, giving each transaction to {@code out} as it is read, in file order (what
   * {@code out} throws ends the reading there, as a repeated id ends {@link #read(Reader)}; false: it
   * wants no more). The reader is consumed but not closed.
   */
  public void read(final Reader in, final JsonlReadAhead.Emit out) throws IOException, InvalidHistoryException {
    if (!fast) {
      readJson(in, out, false, 1);
      return;
    }
    final AionFastPath scanner = new AionFastPath(in, limits, strings, physicalUnit);
    final AionFastPath.Rest rest = scanner.scan(out);
    scanned = scanner.taken();
    if (rest != null) {
      readJson(rest.reader(), out, rest.skipOne(), rest.line());
    }
  }

  /** Jackson reading the array; with {@code skipOne}, its first element is an empty object to skip. */
  private void readJson(final Reader in, final JsonlReadAhead.Emit out, final boolean skipOne, final int firstLine)
      throws IOException, InvalidHistoryException {
    int line = firstLine;
    try (JsonParser p = limits.jsonFactory().createParser(in)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new InvalidHistoryException(1, "expected a JSON array of transactions like [{\"tid\":1,\"sid\":1,...}]");
      }
      if (skipOne && (p.nextToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.END_OBJECT)) {
        throw new IllegalStateException("the fast path's stand-in for the transactions it took is {}");
      }
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        line = p.currentTokenLocation().getLineNr();
        if (t != JsonToken.START_OBJECT) {
          throw new InvalidHistoryException(line, t == null
              ? "the JSON array is not closed"
              : "expected a transaction object like {\"tid\":1,\"sid\":1,\"sts\":...,\"cts\":...,\"ops\":[...]}");
        }
        if (!out.accept(new TxnParser(p, line).transaction())) {
          return;
        }
      }
      if (p.nextToken() != null) {
        throw new InvalidHistoryException(p.currentLocation().getLineNr(), "unexpected content after the JSON array");
      }
    } catch (final JsonProcessingException e) {
      throw limits.jsonFailure(InputLimits.lineOf(e, line), e);
    }
  }

  /** Parses one transaction object; the parser stands on its START_OBJECT. */
  private final class TxnParser {
    private final JsonParser p;
    private final int line;

    TxnParser(final JsonParser p, final int line) {
      this.p = p;
      this.line = line;
    }

    Transaction transaction() throws IOException, InvalidHistoryException {
      String tid = null;
      String sid = null;
      long start = Transaction.NO_TIME;
      long end = Transaction.NO_TIME;
      List<Op> ops = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        final String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "tid" -> tid = id(field);
          case "sid" -> sid = strings.intern(id(field));
          case "sts" -> start = physical(field, true);
          case "cts" -> end = physical(field, false);
          case "ops" -> ops = ops();
          default -> p.skipChildren();
        }
      }
      if (tid == null || sid == null || ops == null) {
        throw new InvalidHistoryException(line, "missing field '" + (tid == null ? "tid" : sid == null ? "sid" : "ops") + "'");
      }
      return new Transaction(tid, sid, Transaction.NO_SEQ, TxnStatus.COMMITTED, start, end, ops, null, null, line);
    }

    private String id(final String field) throws IOException, InvalidHistoryException {
      final JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NUMBER_INT) {
        return p.getText();
      }
      throw new InvalidHistoryException(line, "field '" + field + "' must be an integer or a string");
    }

    /** The physical part of a hybrid logical clock {"p":..,"l":..}, in microseconds. */
    private long physical(final String field, final boolean isStart) throws IOException, InvalidHistoryException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return Transaction.NO_TIME;
      }
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new InvalidHistoryException(line, "field '" + field + "' must be a clock like {\"p\":1691420095436341,\"l\":0}");
      }
      Long physical = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        final String part = p.currentName();
        p.nextToken();
        switch (part) {
          case "p" -> physical = integer(field + ".p");
          case "l" -> integer(field + ".l"); // validated, then dropped (see class comment)
          default -> p.skipChildren();
        }
      }
      if (physical == null) {
        throw new InvalidHistoryException(line, "field '" + field + "' has no physical part 'p'");
      }
      return isStart ? Micros.floor(physical, physicalUnit) : Micros.ceil(physical, physicalUnit);
    }

    private List<Op> ops() throws IOException, InvalidHistoryException {
      if (p.currentToken() != JsonToken.START_ARRAY) {
        throw new InvalidHistoryException(line, "field 'ops' must be an array");
      }
      final List<Op> ops = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (ops.size() == limits.maxOpsPerTxn()) {
          throw InputLimits.exceeded(line, "too many ops in the transaction", InputLimits.MAX_OPS_PER_TXN, limits.maxOpsPerTxn());
        }
        ops.add(op(ops.size()));
      }
      return ops;
    }

    private Op op(final int index) throws IOException, InvalidHistoryException {
      final String where = "ops[" + index + "]";
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new InvalidHistoryException(line, where + " must be an object like {\"t\":\"r\",\"k\":1,\"v\":2}");
      }
      OpType type = null;
      Long key = null;
      Long value = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        final String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "t" -> type = opType(where);
          case "k" -> key = integer(where + ".k");
          case "v" -> value = p.currentToken() == JsonToken.VALUE_NULL ? null : integer(where + ".v");
          default -> p.skipChildren();
        }
      }
      if (type == null || key == null) {
        throw new InvalidHistoryException(line, where + ": missing field '" + (type == null ? "t" : "k") + "'");
      }
      if (type == OpType.WRITE && value == null) {
        throw new InvalidHistoryException(line, where + ": a write needs an integer 'v'");
      }
      return new Op(type, strings.intern(Long.toString(key)), value);
    }

    private OpType opType(final String where) throws IOException, InvalidHistoryException {
      if (p.currentToken() == JsonToken.VALUE_STRING) {
        switch (p.getText().toLowerCase(Locale.ROOT)) {
          case "r", "read":
            return OpType.READ;
          case "w", "write":
            return OpType.WRITE;
          default:
            break;
        }
      }
      throw new InvalidHistoryException(line, "field '" + where + ".t' must be r, w, read or write, got " + p.getText());
    }

    /** A 64-bit integer, given as a JSON integer or a decimal string. */
    private long integer(final String what) throws IOException, InvalidHistoryException {
      final JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
        return p.getLongValue();
      }
      if (t == JsonToken.VALUE_STRING) {
        final String text = p.getText();
        try {
          return Long.parseLong(text.strip());
        } catch (final NumberFormatException e) {
          throw new InvalidHistoryException(line, "field '" + what + "' must be a 64-bit integer, got '" + text + "'", e);
        }
      }
      throw new InvalidHistoryException(line, "field '" + what + "' must be a 64-bit integer, got " + p.getText());
    }
  }
}
