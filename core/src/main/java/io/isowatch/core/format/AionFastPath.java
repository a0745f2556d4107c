package io.isowatch.core.format;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A scanner for Aion/TimeKiller histories as TimeKiller and scripts/jsonl-to-formats.py write them,
 * straight from the characters to transactions: no JSON token, no {@code String} per field name and
 * no boxed number per op.
 *
 * <p>It takes the transactions of the array one by one while each is plain: an object whose fields
 * are {@code tid} and {@code sid} (a JSON integer or a string without escapes), {@code sts} and {@code
 * cts} (null or an object of integer {@code p} and {@code l}), {@code ops} (an array of objects of
 * {@code t} one of r, w, read, write in ASCII letters of any case, {@code k} an integer and {@code v} an
 * integer or null, a write having one), each at most once, and other fields with a scalar value
 * (integer, string without escapes, null, true, false); integers of at most 18 digits; only JSON's
 * white space between tokens. At the first thing it does not take, it stops, and {@link
 * AionHistoryReader}'s Jackson reader reads the rest (from the last transaction taken on, placed at
 * the same lines and columns), so that errors and their messages are the general reader's. Every
 * transaction it takes means the same to that reader. Not thread-safe.
 */
final class AionFastPath {
  private static final int BUFFER_CHARS = 1 << 16;
  /** A transaction longer than this is left to the general reader. */
  static final int MAX_TXN_CHARS = 1 << 20;
  private static final int MAX_DIGITS = 18;
  private static final int NEED_MORE = -2;

  private final Reader in;
  private final StringInterner strings;
  private final TimeUnit unit;
  private final int maxStringChars;
  private final int maxOpsPerTxn;
  private final boolean enabled;

  private char[] buf = new char[BUFFER_CHARS];
  private int limit;
  private boolean eof;
  private int pos;
  // Line and column bookkeeping: the line of pos's scan, and where that line starts (absolute offsets).
  private long base; // absolute offset of buf[0]
  private int line = 1;
  private long lineStart;

  private long number;
  private int tokFrom;
  private int tokTo;

  /** Where the array's '[' is, and where the general reader must go on (just after the last taken). */
  private int bracketLine;
  private int bracketCol;
  private int restAt;
  private int restLine;
  private int restCol;
  private long taken;

  AionFastPath(final Reader in, final InputLimits limits, final StringInterner strings, final TimeUnit unit) {
    this.in = in;
    this.strings = strings;
    this.unit = unit;
    this.maxStringChars = limits.maxStringChars();
    this.maxOpsPerTxn = limits.maxOpsPerTxn();
    // The array, a transaction, its ops and an op nest 4 deep; ids and numbers fit the other limits.
    this.enabled = limits.maxDepth() >= 4 && limits.maxNumberChars() > MAX_DIGITS + 1
        && limits.maxStringChars() >= "write".length();
  }

  /** How many transactions the scanner took (for tests). */
  long taken() {
    return taken;
  }

  /**
   * Gives transactions to {@code out} while they are plain. Null when it took the whole input (or
   * {@code out} wanted no more),
   * array end included; else what the general reader must read: the input from the first thing not
   * taken on, preceded by {@code [{}} where the array opened if a transaction was taken (so that the
   * reader skips one empty object first), or the whole input if none was.
   */
  Rest scan(final JsonlReadAhead.Emit out) throws IOException, InvalidHistoryException {
    fill();
    restAt = 0;
    if (!enabled) {
      return rest(false);
    }
    skipSpace();
    if (!ensure(1) || buf[pos] != '[') {
      return rest(false);
    }
    bracketLine = line;
    bracketCol = column();
    pos++;
    boolean first = true;
    while (true) {
      compactIfFar();
      skipSpace();
      if (!ensure(1)) {
        return rest(!first);
      }
      if (!first) {
        if (buf[pos] == ']') {
          break;
        }
        if (buf[pos] != ',') {
          return rest(true);
        }
        pos++;
        skipSpace();
        if (!ensure(1)) {
          return rest(true);
        }
      } else if (buf[pos] == ']') {
        return rest(false);
      }
      final Transaction t = transaction();
      if (t == null) {
        return rest(!first);
      }
      taken++;
      if (!out.accept(t)) {
        return null;
      }
      first = false;
      restAt = pos;
      restLine = line;
      restCol = column();
    }
    pos++;
    skipSpace();
    if (ensure(1)) {
      return rest(true);
    }
    return null;
  }

  /** The next transaction if it is plain and lies within reach, else null with pos where it starts. */
  private Transaction transaction() throws IOException, InvalidHistoryException {
    // Absolute: reading more may move the buffer.
    final long from = base + pos;
    final int fromLine = line;
    final long fromLineStart = lineStart;
    while (true) {
      final Transaction t = parseTxn(fromLine);
      if (t != null) {
        return t;
      }
      final boolean runOut = needMore;
      pos = (int) (from - base);
      line = fromLine;
      lineStart = fromLineStart;
      // Past what is buffered: read more (keeping it from its start) and scan it again.
      if (!runOut || eof || limit - pos >= MAX_TXN_CHARS || !more()) {
        return null;
      }
    }
  }

  private boolean needMore;

  private Transaction parseTxn(final int txnLine) throws InvalidHistoryException {
    needMore = false;
    if (buf[pos] != '{') {
      return null;
    }
    pos++;
    String tid = null;
    String sid = null;
    long start = Transaction.NO_TIME;
    long end = Transaction.NO_TIME;
    List<Op> ops = null;
    boolean seenStart = false;
    boolean seenEnd = false;
    boolean any = false;
    while (true) {
      if (!space()) {
        return null;
      }
      if (buf[pos] == '}' && !any) {
        pos++;
        break;
      }
      if (!string()) {
        return null;
      }
      final int field = fieldOf(tokFrom, tokTo);
      if (!space() || buf[pos] != ':') {
        return null;
      }
      pos++;
      if (!space()) {
        return null;
      }
      switch (field) {
        case 0 -> {
          if (tid != null || !id()) {
            return null;
          }
          tid = new String(buf, tokFrom, tokTo - tokFrom);
        }
        case 1 -> {
          if (sid != null || !id()) {
            return null;
          }
          sid = strings.intern(buf, tokFrom, tokTo);
        }
        case 2 -> {
          if (seenStart || !clock()) {
            return null;
          }
          seenStart = true;
          start = nil ? Transaction.NO_TIME : Micros.floor(number, unit);
        }
        case 3 -> {
          if (seenEnd || !clock()) {
            return null;
          }
          seenEnd = true;
          end = nil ? Transaction.NO_TIME : Micros.ceil(number, unit);
        }
        case 4 -> {
          if (ops != null || (ops = ops()) == null) {
            return null;
          }
        }
        default -> {
          if (!scalar()) {
            return null;
          }
        }
      }
      any = true;
      final int next = separator('}');
      if (next == BAD) {
        return null;
      }
      if (next == CLOSED) {
        break;
      }
    }
    if (tid == null || sid == null || ops == null) {
      return null;
    }
    return new Transaction(tid, sid, Transaction.NO_SEQ, TxnStatus.COMMITTED, start, end, ops, null, null, txnLine);
  }

  private boolean nil;

  /** null, or {"p": integer, "l": integer} in either order (p required): sets nil and number (p). */
  private boolean clock() {
    if (literal("null")) {
      nil = true;
      return true;
    }
    nil = false;
    if (buf[pos] != '{') {
      return false;
    }
    pos++;
    boolean seenP = false;
    boolean seenL = false;
    long p = 0;
    while (true) {
      if (!space() || !string()) {
        return false;
      }
      final boolean isP = tokTo - tokFrom == 1 && buf[tokFrom] == 'p';
      final boolean isL = tokTo - tokFrom == 1 && buf[tokFrom] == 'l';
      if ((!isP && !isL) || (isP && seenP) || (isL && seenL)) {
        return false;
      }
      if (!space() || buf[pos] != ':') {
        return false;
      }
      pos++;
      if (!space() || !integer()) {
        return false;
      }
      if (isP) {
        seenP = true;
        p = number;
      } else {
        seenL = true;
      }
      final int next = separator('}');
      if (next == BAD) {
        return false;
      }
      if (next == CLOSED) {
        break;
      }
    }
    number = p;
    return seenP;
  }

  private List<Op> ops() {
    if (buf[pos] != '[') {
      return null;
    }
    pos++;
    final List<Op> ops = new ArrayList<>(4);
    if (!space()) {
      return null;
    }
    if (buf[pos] == ']') {
      pos++;
      return ops;
    }
    while (true) {
      if (ops.size() == maxOpsPerTxn) {
        return null;
      }
      final Op op = op();
      if (op == null) {
        return null;
      }
      ops.add(op);
      final int next = separator(']');
      if (next == BAD) {
        return null;
      }
      if (next == CLOSED) {
        return ops;
      }
      if (!space()) {
        return null;
      }
    }
  }

  private Op op() {
    if (buf[pos] != '{') {
      return null;
    }
    pos++;
    OpType type = null;
    String key = null;
    Long value = null;
    boolean seenV = false;
    while (true) {
      if (!space() || !string() || tokTo - tokFrom != 1) {
        return null;
      }
      final char f = buf[tokFrom];
      if (!space() || buf[pos] != ':') {
        return null;
      }
      pos++;
      if (!space()) {
        return null;
      }
      if (f == 't' && type == null) {
        if (!string() || (type = opType(tokFrom, tokTo)) == null) {
          return null;
        }
      } else if (f == 'k' && key == null) {
        if (!integer()) {
          return null;
        }
        // JSON integers are spelt as Long.toString spells them, but for -0.
        key = tokTo - tokFrom == 2 && buf[tokFrom] == '-' ? strings.intern("0") : strings.intern(buf, tokFrom, tokTo);
      } else if (f == 'v' && !seenV) {
        seenV = true;
        if (literal("null")) {
          value = null;
        } else if (integer()) {
          value = number;
        } else {
          return null;
        }
      } else {
        return null;
      }
      final int next = separator('}');
      if (next == BAD) {
        return null;
      }
      if (next == CLOSED) {
        break;
      }
    }
    if (type == null || key == null || (type == OpType.WRITE && value == null)) {
      return null;
    }
    return new Op(type, key, value);
  }

  private OpType opType(final int from, final int to) {
    final int n = to - from;
    if (n == 1) {
      final char ch = (char) (buf[from] | 0x20);
      return ch == 'r' ? OpType.READ : ch == 'w' ? OpType.WRITE : null;
    }
    if (n == 4 && lowerEquals(from, "read")) {
      return OpType.READ;
    }
    if (n == 5 && lowerEquals(from, "write")) {
      return OpType.WRITE;
    }
    return null;
  }

  /** Whether buf[from..] is {@code word} in ASCII letters of any case. */
  private boolean lowerEquals(final int from, final String word) {
    for (int i = 0; i < word.length(); i++) {
      final char ch = buf[from + i];
      if (ch > 0x7f || (ch | 0x20) != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** tid/sid: an integer (its literal) or a string (its content): tokFrom/tokTo. */
  private boolean id() {
    if (buf[pos] == '"') {
      return string();
    }
    return integer();
  }

  /** A scalar value of a field the reader skips. */
  private boolean scalar() {
    if (buf[pos] == '"') {
      return string();
    }
    return literal("null") || literal("true") || literal("false") || integer();
  }

  /** {@code -?(0|[1-9][0-9]*)}, at most 18 digits, followed by a delimiter: number, tokFrom/tokTo. */
  private boolean integer() {
    final int from = pos;
    int i = pos;
    final boolean negative = i < limit && buf[i] == '-';
    if (negative) {
      i++;
    }
    final int digitsFrom = i;
    long n = 0;
    while (i < limit) {
      final char d = buf[i];
      if (d < '0' || d > '9') {
        break;
      }
      n = n * 10 + (d - '0');
      i++;
    }
    if (i >= limit) {
      needMore = !eof;
      return false;
    }
    final int digits = i - digitsFrom;
    if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && buf[digitsFrom] == '0') || !delimiter(buf[i])) {
      return false;
    }
    tokFrom = from;
    tokTo = i;
    number = negative ? -n : n;
    pos = i;
    return true;
  }

  /** A string without escapes, control characters or surrogates: tokFrom/tokTo its content. */
  private boolean string() {
    if (buf[pos] != '"') {
      return false;
    }
    final int from = pos + 1;
    int i = from;
    final int max = from + maxStringChars;
    while (i < limit) {
      final char ch = buf[i];
      if (ch == '"') {
        tokFrom = from;
        tokTo = i;
        pos = i + 1;
        return true;
      }
      if (ch < 0x20 || ch == '\\' || (ch >= 0xD800 && ch <= 0xDFFF) || i >= max) {
        return false;
      }
      i++;
    }
    needMore = !eof;
    return false;
  }

  /** {@code word} followed by a delimiter. */
  private boolean literal(final String word) {
    final int n = word.length();
    for (int i = 0; i <= n; i++) {
      if (pos + i >= limit) {
        needMore = !eof;
        return false;
      }
      if (i < n && buf[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    if (!delimiter(buf[pos + n])) {
      return false;
    }
    pos += n;
    return true;
  }

  private static boolean delimiter(final char ch) {
    return ch == ',' || ch == '}' || ch == ']' || ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
  }

  /** Skips JSON white space; false (needMore set) when the buffer ends first. */
  private static final int BAD = -1;
  private static final int CLOSED = 0;
  private static final int NEXT = 1;

  /**
   * After an object's member or an array's element: {@code close} (consumed) ends it, a comma
   * (consumed) goes on to the next, anything else is not taken.
   */
  private int separator(final char close) {
    if (!space()) {
      return BAD;
    }
    if (buf[pos] == close) {
      pos++;
      return CLOSED;
    }
    if (buf[pos] != ',') {
      return BAD;
    }
    pos++;
    return NEXT;
  }

  private boolean space() {
    while (pos < limit) {
      final char ch = buf[pos];
      if (ch == ' ' || ch == '\t') {
        pos++;
      } else if (ch == '\n') {
        pos++;
        newLine();
      } else if (ch == '\r') {
        if (pos + 1 >= limit && !eof) {
          break;
        }
        pos++;
        if (pos < limit && buf[pos] == '\n') {
          pos++;
        }
        newLine();
      } else {
        return true;
      }
    }
    needMore = !eof;
    return false;
  }

  private void newLine() {
    line++;
    lineStart = base + pos;
  }

  private int column() {
    return (int) (base + pos - lineStart) + 1;
  }

  /** Skips white space between transactions, reading more as needed. */
  private void skipSpace() throws IOException {
    while (!space() && needMore) {
      if (!more()) {
        return;
      }
    }
  }

  /** Whether at least n characters are buffered at pos, reading more if needed. */
  private boolean ensure(final int n) throws IOException {
    while (limit - pos < n) {
      if (eof || !more()) {
        return false;
      }
    }
    return true;
  }

  private void fill() throws IOException {
    if (limit == 0 && !eof) {
      more();
    }
  }

  /** Moves what is left to the start of the buffer when the scan is far into it. */
  private void compactIfFar() {
    if (pos > buf.length / 2) {
      shift();
    }
  }

  private void shift() {
    final int keep = Math.min(pos, restAt);
    System.arraycopy(buf, keep, buf, 0, limit - keep);
    base += keep;
    limit -= keep;
    pos -= keep;
    restAt -= keep;
  }

  /** Reads more characters after what is buffered (growing the buffer if it is full); false at the end. */
  private boolean more() throws IOException {
    if (restAt > 0) {
      shift();
    }
    if (limit == buf.length) {
      buf = java.util.Arrays.copyOf(buf, buf.length * 2);
    }
    final int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
      return false;
    }
    limit += n;
    return true;
  }

  /** tid 0, sid 1, sts 2, cts 3, ops 4, any other field 5. */
  private int fieldOf(final int from, final int to) {
    if (to - from != 3) {
      return 5;
    }
    final char a = buf[from];
    final char b = buf[from + 1];
    final char c = buf[from + 2];
    if (a == 't' && b == 'i' && c == 'd') {
      return 0;
    }
    if (a == 's' && b == 'i' && c == 'd') {
      return 1;
    }
    if (a == 's' && b == 't' && c == 's') {
      return 2;
    }
    if (a == 'c' && b == 't' && c == 's') {
      return 3;
    }
    if (a == 'o' && b == 'p' && c == 's') {
      return 4;
    }
    return 5;
  }

  /** What the general reader reads on: see {@link #scan}. */
  private Rest rest(final boolean afterTaken) {
    if (!afterTaken) {
      return new Rest(new Tail(new char[0], buf, 0, limit, in), false, 1);
    }
    final StringBuilder prefix = new StringBuilder();
    repeat(prefix, '\n', bracketLine - 1);
    repeat(prefix, ' ', bracketCol - 1);
    prefix.append("[{}");
    if (restLine > bracketLine) {
      repeat(prefix, '\n', restLine - bracketLine);
      repeat(prefix, ' ', restCol - 1);
    } else {
      repeat(prefix, ' ', restCol - bracketCol - 3);
    }
    final char[] p = new char[prefix.length()];
    prefix.getChars(0, p.length, p, 0);
    return new Rest(new Tail(p, buf, restAt, limit, in), true, restLine);
  }

  private static void repeat(final StringBuilder sb, final char c, final int n) {
    for (int i = 0; i < n; i++) {
      sb.append(c);
    }
  }

  /**
   * The general reader's input; whether it starts with {@code [{}} (one empty object to skip, standing
   * for the transactions taken), and the line it goes on at.
   */
  record Rest(Reader reader, boolean skipOne, int line) {}

  /** A prefix, then buffered characters, then the rest of the input. */
  private static final class Tail extends Reader {
    private final char[] prefix;
    private final char[] buffered;
    private final Reader rest;
    private int prefixAt;
    private int at;
    private final int end;

    Tail(final char[] prefix, final char[] buffered, final int from, final int to, final Reader rest) {
      this.prefix = prefix;
      this.buffered = buffered;
      this.at = from;
      this.end = to;
      this.rest = rest;
    }

    @Override
    public int read(final char[] cbuf, final int off, final int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (prefixAt < prefix.length) {
        final int n = Math.min(len, prefix.length - prefixAt);
        System.arraycopy(prefix, prefixAt, cbuf, off, n);
        prefixAt += n;
        return n;
      }
      if (at < end) {
        final int n = Math.min(len, end - at);
        System.arraycopy(buffered, at, cbuf, off, n);
        at += n;
        return n;
      }
      return rest.read(cbuf, off, len);
    }

    @Override
    public void close() {
      // The caller's reader is not closed here.
    }
  }
}
