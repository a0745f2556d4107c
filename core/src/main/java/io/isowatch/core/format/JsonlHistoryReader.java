package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonFactory;
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

/**
 * Reads the native JSON Lines format, IsoWatch's public contract: one transaction per line, e.g.
 *
 * <pre>
 * {"session":"s1","txn":"s1-7","status":"committed","start":1732180000000123,"end":1732180000000456,
 *  "ops":[{"t":"r","k":"x","v":0},{"t":"w","k":"x","v":1017}]}
 * </pre>
 *
 * <ul>
 *   <li>{@code session} (string, required): the client session.
 *   <li>{@code txn} (string, required): the transaction id, unique in the history.
 *   <li>{@code seq} (integer &ge; 0, optional): index in the session from 0; absent means {@link
 *       Transaction#NO_SEQ} (file order within the session is session order).
 *   <li>{@code status} (required): {@code committed}, {@code aborted} or {@code unknown}.
 *   <li>{@code start}, {@code end} (integers, optional): client-side microseconds since the
 *       epoch; absent or null means {@link Transaction#NO_TIME}.
 *   <li>{@code ops} (array, required): operations in program order, each {@code {"t":"r"|"w",
 *       "k":<string>, "v":<64-bit integer or null>}}; {@code null} (or an absent {@code v}) is
 *       valid only for a read of an absent key.
 *   <li>{@code tenant}, {@code level} (strings, optional): carried into the transaction.
 * </ul>
 *
 * <p>Unknown fields are ignored (forward compatibility); blank lines are skipped. Any other
 * deviation is an {@link InvalidHistoryException} naming the line. Keys, sessions, tenants and
 * levels are interned, so an instance must not be shared between threads.
 *
 * <p>Lines as writers produce them go through a scanner from characters to the transaction
 * ({@link JsonlFastPath}); every other line (escapes, unknown fields, anything invalid) through
 * Jackson's streaming parser, which decides what it means or why it is refused. Both give the same
 * transaction for a line both take. The system property {@value #FAST_PATH_PROPERTY}{@code =false}
 * sends every line to the Jackson parser (to compare, or to rule the scanner out).
 */
public final class JsonlHistoryReader {
  /** The system property that, set to {@code false}, turns the scanner off (see above). */
  public static final String FAST_PATH_PROPERTY = "isowatch.jsonl.fast-path";

  private final StringInterner strings = new StringInterner();
  private final InputLimits limits;
  private final JsonFactory factory;
  private final JsonlFastPath fast;
  private char[] lineCopy = new char[256];

  /** A reader with the default {@link InputLimits}. */
  public JsonlHistoryReader() {
    this(InputLimits.defaults());
  }

  public JsonlHistoryReader(final InputLimits limits) {
    this(limits, !"false".equalsIgnoreCase(System.getProperty(FAST_PATH_PROPERTY, "true").strip()));
  }

  /** A reader whose scanner is on or off ({@code fastPath} false: every line through Jackson's parser). */
  JsonlHistoryReader(final InputLimits limits, final boolean fastPath) {
    this.limits = limits;
    this.factory = limits.jsonFactory();
    this.fast = fastPath ? new JsonlFastPath(limits, strings) : null;
  }

  /** Reads a whole JSONL history. The reader is consumed but not closed. */
  public History read(final Reader in) throws IOException, InvalidHistoryException {
    final LineSource lines = new LineSource(in, limits);
    final HistoryAccumulator acc = new HistoryAccumulator();
    while (lines.advance()) {
      final Transaction t = parseLine(lines.chars(), lines.from(), lines.to(), lines.lineNo());
      if (t != null) {
        acc.add(t);
      }
    }
    return acc.build();
  }

  /**
   * Parses the line {@code chars[from, to)} (as {@link LineSource#advance} exposes it): its
   * transaction, or null when the line is blank (blank lines are skipped).
   */
  public Transaction parseLine(final char[] chars, final int from, final int to, final int lineNo)
      throws InvalidHistoryException {
    if (isBlank(chars, from, to)) {
      return null;
    }
    if (fast != null && to - from <= limits.maxLineChars()) {
      final Transaction t = fast.parse(chars, from, to, lineNo);
      if (t != null) {
        return t;
      }
    }
    return parseWithJackson(new String(chars, from, to - from), lineNo);
  }

  /**
   * Parses one non-blank line into a transaction, e.g. for a record that arrived on its own. The
   * line number only labels messages and {@link Transaction#line()}.
   */
  public Transaction parseLine(final String line, final int lineNo) throws InvalidHistoryException {
    if (fast != null && line.length() <= limits.maxLineChars()) {
      final int n = line.length();
      if (lineCopy.length < n) {
        lineCopy = new char[Math.max(n, lineCopy.length * 2)];
      }
      line.getChars(0, n, lineCopy, 0);
      final Transaction t = fast.parse(lineCopy, 0, n, lineNo);
      if (t != null) {
        return t;
      }
    }
    return parseWithJackson(line, lineNo);
  }

  /** As {@link String#isBlank()} on {@code chars[from, to)}. */
  private static boolean isBlank(final char[] chars, final int from, final int to) {
    for (int i = from; i < to; i++) {
      final char ch = chars[i];
      if (!Character.isWhitespace(ch)) {
        // A surrogate pair may still be whitespace as a code point: let String decide.
        return Character.isSurrogate(ch) && new String(chars, from, to - from).isBlank();
      }
    }
    return true;
  }

  private Transaction parseWithJackson(final String line, final int lineNo) throws InvalidHistoryException {
    if (line.length() > limits.maxLineChars()) {
      throw InputLimits.exceeded(lineNo, "line too long", InputLimits.MAX_LINE_CHARS, limits.maxLineChars());
    }
    try (JsonParser p = factory.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new InvalidHistoryException(lineNo, "expected a JSON object (one transaction per line)");
      }
      final Transaction txn = new LineParser(p, lineNo).transaction();
      if (p.nextToken() != null) {
        throw new InvalidHistoryException(lineNo, "unexpected content after the transaction object");
      }
      return txn;
    } catch (final JsonProcessingException e) {
      throw limits.jsonFailure(lineNo, e);
    } catch (final IOException e) {
      // Parsing a String performs no I/O; anything else is a parser failure on this line.
      throw new InvalidHistoryException(lineNo, "unreadable line: " + e.getMessage(), e);
    }
  }

  /** Parses the fields of one transaction object; the parser stands on its START_OBJECT. */
  private final class LineParser {
    private final JsonParser p;
    private final int lineNo;

    LineParser(final JsonParser p, final int lineNo) {
      this.p = p;
      this.lineNo = lineNo;
    }

    Transaction transaction() throws IOException, InvalidHistoryException {
      String session = null;
      String txn = null;
      TxnStatus status = null;
      long seq = Transaction.NO_SEQ;
      long start = Transaction.NO_TIME;
      long end = Transaction.NO_TIME;
      List<Op> ops = null;
      String tenant = null;
      String level = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        final String field = p.currentName();
        final JsonToken value = p.nextToken();
        switch (field) {
          case "session" -> session = strings.intern(requiredString(field, value));
          case "txn" -> txn = requiredString(field, value);
          case "status" -> status = status(value);
          case "seq" -> seq = seq(value);
          case "start" -> start = time(field, value);
          case "end" -> end = time(field, value);
          case "ops" -> ops = ops(value);
          case "tenant" -> tenant = strings.intern(optionalString(field, value));
          case "level" -> level = strings.intern(optionalString(field, value));
          default -> p.skipChildren(); // unknown fields are ignored: forward compatibility
        }
      }
      requirePresent("session", session);
      requirePresent("txn", txn);
      requirePresent("status", status);
      requirePresent("ops", ops);
      return new Transaction(txn, session, seq, status, start, end, ops, tenant, level, lineNo);
    }

    private void requirePresent(final String field, final Object value) throws InvalidHistoryException {
      if (value == null) {
        throw new InvalidHistoryException(lineNo, "missing field '" + field + "'");
      }
    }

    private String requiredString(final String field, final JsonToken t) throws IOException, InvalidHistoryException {
      if (t != JsonToken.VALUE_STRING) {
        throw new InvalidHistoryException(lineNo, "field '" + field + "' must be a string, got " + shown(t));
      }
      return p.getText();
    }

    private String optionalString(final String field, final JsonToken t) throws IOException, InvalidHistoryException {
      return t == JsonToken.VALUE_NULL ? null : requiredString(field, t);
    }

    private TxnStatus status(final JsonToken t) throws IOException, InvalidHistoryException {
      final String s = t == JsonToken.VALUE_STRING ? p.getText() : null;
      if (s != null) {
        switch (s) {
          case "committed":
            return TxnStatus.COMMITTED;
          case "aborted":
            return TxnStatus.ABORTED;
          case "unknown":
            return TxnStatus.UNKNOWN;
          default:
            break;
        }
      }
      throw new InvalidHistoryException(
          lineNo, "field 'status' must be committed, aborted or unknown, got " + shown(t));
    }

    private long seq(final JsonToken t) throws IOException, InvalidHistoryException {
      if (t == JsonToken.VALUE_NULL) {
        return Transaction.NO_SEQ;
      }
      final long seq = integer("seq", t, "an integer >= 0");
      if (seq < 0) {
        throw new InvalidHistoryException(lineNo, "field 'seq' must be an integer >= 0, got " + seq);
      }
      return seq;
    }

    private long time(final String field, final JsonToken t) throws IOException, InvalidHistoryException {
      return t == JsonToken.VALUE_NULL
          ? Transaction.NO_TIME
          : integer(field, t, "an integer (microseconds since the epoch)");
    }

    private long integer(final String what, final JsonToken t, final String expected)
        throws IOException, InvalidHistoryException {
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw new InvalidHistoryException(lineNo, "field '" + what + "' must be " + expected + ", got " + shown(t));
      }
      if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        throw new InvalidHistoryException(lineNo, "field '" + what + "' is outside the 64-bit range: " + p.getText());
      }
      return p.getLongValue();
    }

    private List<Op> ops(final JsonToken t) throws IOException, InvalidHistoryException {
      if (t != JsonToken.START_ARRAY) {
        throw new InvalidHistoryException(lineNo, "field 'ops' must be an array, got " + shown(t));
      }
      final List<Op> ops = new ArrayList<>(4);
      JsonToken next;
      while ((next = p.nextToken()) != JsonToken.END_ARRAY) {
        if (ops.size() == limits.maxOpsPerTxn()) {
          throw InputLimits.exceeded(lineNo, "too many ops in the transaction", InputLimits.MAX_OPS_PER_TXN, limits.maxOpsPerTxn());
        }
        ops.add(op(next, ops.size()));
      }
      return ops;
    }

    private Op op(final JsonToken t, final int index) throws IOException, InvalidHistoryException {
      final String where = "ops[" + index + "]";
      if (t != JsonToken.START_OBJECT) {
        throw new InvalidHistoryException(
            lineNo, where + " must be an object like {\"t\":\"r\",\"k\":\"x\",\"v\":1}, got " + shown(t));
      }
      OpType type = null;
      String key = null;
      Long value = null;
      List<Long> elements = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        final String field = p.currentName();
        final JsonToken v = p.nextToken();
        switch (field) {
          case "t" -> type = opType(where, v);
          case "k" -> key = strings.intern(requiredString(where + ".k", v));
          case "v" -> {
            if (v == JsonToken.START_ARRAY) {
              elements = list(where + ".v");
            } else {
              value = v == JsonToken.VALUE_NULL ? null : integer(where + ".v", v, "a 64-bit integer, a list of them, or null");
            }
          }
          default -> p.skipChildren();
        }
      }
      if (type == null) {
        throw new InvalidHistoryException(lineNo, where + ": missing field 't'");
      }
      if (key == null) {
        throw new InvalidHistoryException(lineNo, where + ": missing field 'k'");
      }
      if (elements != null) {
        if (type != OpType.READ) {
          throw new InvalidHistoryException(lineNo, where + ": only a read returns a list; "
              + (type == OpType.WRITE ? "a write" : "an append") + " needs an integer 'v'");
        }
        return Op.readList(key, elements);
      }
      if (type != OpType.READ && value == null) {
        throw new InvalidHistoryException(lineNo, where + ": " + (type == OpType.WRITE ? "a write" : "an append")
            + " needs an integer 'v' (null is only valid for a read of an absent key)");
      }
      return new Op(type, key, value);
    }

    /** The list a list-append read returned: integers, at most max-list-elements of them. */
    private List<Long> list(final String where) throws IOException, InvalidHistoryException {
      final List<Long> elements = new ArrayList<>();
      JsonToken e;
      while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
        if (elements.size() == limits.maxListElements()) {
          throw InputLimits.exceeded(lineNo, "list read too long", InputLimits.MAX_LIST_ELEMENTS,
              limits.maxListElements());
        }
        elements.add(integer(where + "[" + elements.size() + "]", e, "a 64-bit integer"));
      }
      return elements;
    }

    private OpType opType(final String where, final JsonToken t) throws IOException, InvalidHistoryException {
      if (t == JsonToken.VALUE_STRING) {
        final String s = p.getText();
        if ("r".equals(s)) {
          return OpType.READ;
        }
        if ("w".equals(s)) {
          return OpType.WRITE;
        }
        if ("a".equals(s)) {
          return OpType.APPEND;
        }
      }
      throw new InvalidHistoryException(lineNo, "field '" + where + ".t' must be r, w or a, got " + shown(t));
    }

    /** The offending value as a person would write it in the file. */
    private String shown(final JsonToken t) throws IOException {
      if (t == null) {
        return "nothing";
      }
      return switch (t) {
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        case VALUE_STRING -> "'" + p.getText() + "'";
        default -> p.getText();
      };
    }
  }
}
