package io.isowatch.core.format;

/**
 * A scanner for one line of an Elle history in JSON lines (one op object per line, as elle-cli takes
 * them: {@code {"index":0,"type":"invoke","process":0,"f":"txn","value":[["r","x",null]]}}), straight
 * from the characters to a {@link JepsenOp} whose value is already decoded ({@link
 * ElleHistoryAssembler.Mops}): no map, list, boxed number or parser per op, and no {@code String} for a
 * key or process already seen.
 *
 * <p>It takes only what it can take with certainty and answers {@code null} for anything else; the
 * reader then hands that line and the rest of the input to Jackson, so errors and their messages are
 * the general reader's. It takes a line holding one object, with spaces and tabs around its tokens,
 * whose names are {@code "type" "f" "process" "value" "time" "index"} (each at most once) or other
 * names (not starting with {@code :}) with a plain value (a string, an integer, true, false or null);
 * with {@code type} one of {@code "invoke" "ok" "fail" "info"}, {@code f} a string or null, {@code
 * process} an integer or a string or null, {@code time} and {@code index} integers or null, and {@code
 * value} null or an array of micro-ops {@code ["r", k, v]}, {@code ["w", k, v]}, {@code ["append", k,
 * v]} whose key is a string or an integer and whose value is an integer (or null for a read). Strings
 * are ASCII without escapes and do not start with {@code :} (which {@link ElleNames#name} strips);
 * integers are 64-bit, spelt as {@link Long#toString} spells them; tokens, strings, ops and nesting lie
 * within the {@link InputLimits}. Every such line means the same to Jackson and {@link JepsenOp#decode}.
 * Not thread-safe.
 */
final class ElleJsonFastPath {
  private static final int MAX_DIGITS = 19;
  /** The op object, its value array, one micro-op, and the micro-op's scalars one deeper ({@link JsonValues}). */
  private static final int DEPTH = 3;

  private static final int F_TYPE = 0;
  private static final int F_F = 1;
  private static final int F_PROCESS = 2;
  private static final int F_VALUE = 3;
  private static final int F_TIME = 4;
  private static final int F_INDEX = 5;
  private static final int F_OTHER = 6;

  private final StringInterner strings;
  private final int maxStringChars;
  private final int maxOpsPerTxn;
  private final boolean enabled;

  private char[] c;
  private int pos;
  private int end;
  private long number;
  private boolean isNull;
  private int strFrom;
  private int strTo;
  private final ElleMopsBuffer buffer = new ElleMopsBuffer();

  ElleJsonFastPath(final InputLimits limits, final StringInterner strings) {
    this.strings = strings;
    this.maxStringChars = limits.maxStringChars();
    this.maxOpsPerTxn = limits.maxOpsPerTxn();
    // Limits so low that a plain op may break them: let Jackson apply them.
    this.enabled = limits.maxDepth() > DEPTH && limits.maxStringChars() > "process".length()
        && limits.maxNumberChars() > MAX_DIGITS + 1;
  }

  /** Whether {@code chars[from, to)} holds only spaces and tabs (a line Jackson skips). */
  static boolean isBlank(final char[] chars, final int from, final int to) {
    for (int i = from; i < to; i++) {
      if (chars[i] != ' ' && chars[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  /** The op on the line {@code chars[from, to)} (without its line break), or null. */
  JepsenOp parse(final char[] chars, final int from, final int to, final int line, final long ordinal) {
    if (!enabled) {
      return null;
    }
    this.c = chars;
    this.pos = from;
    this.end = to;
    try {
      skipSpace();
      final JepsenOp op = op(line, ordinal);
      skipSpace();
      return pos == end ? op : null;
    } finally {
      this.c = null;
    }
  }

  private JepsenOp op(final int line, final long ordinal) {
    if (!take('{')) {
      return null;
    }
    String type = null;
    String f = null;
    String process = null;
    Object value = null;
    Long time = null;
    Long index = null;
    int seen = 0;
    skipSpace();
    if (take('}')) {
      return null; // no type: Jackson's path reports it
    }
    while (true) {
      skipSpace();
      if (!take('"') || !string()) {
        return null;
      }
      final int field = fieldName();
      if (field < 0 || (field != F_OTHER && (seen & (1 << field)) != 0)) {
        return null;
      }
      seen |= 1 << field;
      skipSpace();
      if (!take(':')) {
        return null;
      }
      skipSpace();
      switch (field) {
        case F_TYPE -> {
          if (!take('"') || !string() || (type = ElleMopsBuffer.type(c, strFrom, strTo)) == null) {
            return null;
          }
        }
        case F_F -> {
          if (takeWord("null")) {
            f = null;
          } else if (!take('"') || !string()) {
            return null;
          } else {
            f = strTo - strFrom == 3 && c[strFrom] == 't' && c[strFrom + 1] == 'x' && c[strFrom + 2] == 'n'
                ? "txn" : new String(c, strFrom, strTo - strFrom);
          }
        }
        case F_PROCESS -> {
          if (takeWord("null")) {
            process = null;
          } else if (take('"')) {
            if (!string()) {
              return null;
            }
            process = strings.intern(c, strFrom, strTo);
          } else {
            final int from = pos;
            if (!integer()) {
              return null;
            }
            process = strings.intern(c, from, pos);
          }
        }
        case F_TIME, F_INDEX -> {
          Long n = null;
          if (!takeWord("null")) {
            if (!integer()) {
              return null;
            }
            n = number;
          }
          if (field == F_TIME) {
            time = n;
          } else {
            index = n;
          }
        }
        case F_VALUE -> {
          if (takeWord("null")) {
            value = null;
          } else if ((value = mops()) == null) {
            return null;
          }
        }
        default -> {
          if (!plainValue()) {
            return null;
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
    }
    if (type == null) {
      return null; // Jackson's path reports it
    }
    return new JepsenOp(type, f, process, value, time, index, line, ordinal);
  }

  /** The micro-ops of a {@code value} array, or null. */
  private ElleHistoryAssembler.Mops mops() {
    if (!take('[')) {
      return null;
    }
    int n = 0;
    skipSpace();
    if (!take(']')) {
      while (true) {
        skipSpace();
        if (n == maxOpsPerTxn || !mop(n)) {
          return null;
        }
        n++;
        skipSpace();
        if (take(']')) {
          break;
        }
        if (!take(',')) {
          return null;
        }
      }
    }
    return buffer.mops(n);
  }

  /** One micro-op {@code [f, k, v]} into slot {@code n}; false if it is not one this scanner takes. */
  private boolean mop(final int n) {
    if (!take('[')) {
      return false;
    }
    skipSpace();
    if (!take('"') || !string()) {
      return false;
    }
    final byte kind = ElleMopsBuffer.kind(c, strFrom, strTo);
    if (kind == ElleMopsBuffer.NOT_A_KIND) {
      return false;
    }
    skipSpace();
    if (!take(',')) {
      return false;
    }
    skipSpace();
    final String key;
    if (take('"')) {
      if (!string()) {
        return false;
      }
      key = strings.intern(c, strFrom, strTo);
    } else {
      final int from = pos;
      if (!integer()) {
        return false;
      }
      key = strings.intern(c, from, pos);
    }
    skipSpace();
    if (!take(',')) {
      return false;
    }
    skipSpace();
    if (takeWord("null")) {
      if (kind != ElleHistoryAssembler.Mops.READ) {
        return false; // writes and appends of null are errors: the general reader reports them
      }
      isNull = true;
    } else if (integer()) {
      isNull = false;
    } else {
      return false; // list reads, other values
    }
    skipSpace();
    if (!take(']')) {
      return false;
    }
    buffer.set(n, kind, key, number, isNull);
    return true;
  }

  /** The known field the name just read is, {@link #F_OTHER} for another name, -1 for a name ElleNames would change. */
  private int fieldName() {
    final int n = strTo - strFrom;
    switch (n) {
      case 1:
        return c[strFrom] == 'f' ? F_F : F_OTHER;
      case 4:
        return match(strFrom, "type") ? F_TYPE : match(strFrom, "time") ? F_TIME : F_OTHER;
      case 5:
        return match(strFrom, "value") ? F_VALUE : match(strFrom, "index") ? F_INDEX : F_OTHER;
      case 7:
        return match(strFrom, "process") ? F_PROCESS : F_OTHER;
      default:
        return F_OTHER;
    }
  }

  /** A value the op decoding ignores: a plain string, an integer, true, false or null. */
  private boolean plainValue() {
    if (take('"')) {
      return string();
    }
    return takeWord("null") || takeWord("true") || takeWord("false") || integer();
  }

  private boolean match(final int at, final String word) {
    return ElleMopsBuffer.matches(c, at, word);
  }


  /**
   * A string's content after its opening quote ({@link #strFrom}..{@link #strTo}): printable ASCII
   * without escapes, within the limit, not starting with {@code :} (a name {@link ElleNames#name}
   * would change). The empty string is taken.
   */
  private boolean string() {
    strFrom = pos;
    while (pos < end) {
      final char ch = c[pos];
      if (ch == '"') {
        strTo = pos++;
        return strTo - strFrom <= maxStringChars && (strTo == strFrom || c[strFrom] != ':');
      }
      if (ch == '\\' || ch < 0x20 || ch >= 0x7f) {
        return false;
      }
      pos++;
    }
    return false;
  }

  /**
   * A 64-bit integer as Long.toString spells it (an optional '-', 1 to 19 digits without a leading
   * zero, not -0), followed by a space, tab, comma or closing bracket (not by a fraction or exponent).
   */
  private boolean integer() {
    final int from = pos;
    final boolean negative = pos < end && c[pos] == '-';
    if (negative) {
      pos++;
    }
    final int digitsFrom = pos;
    // Accumulated negative, as Long.parseLong does, so that Long.MIN_VALUE is taken too.
    final long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
    final long multMin = limit / 10;
    long n = 0;
    boolean fits = true;
    while (pos < end && c[pos] >= '0' && c[pos] <= '9') {
      final int d = c[pos] - '0';
      if (n < multMin || 10 * n < limit + d) {
        fits = false;
      } else {
        n = 10 * n - d;
      }
      pos++;
    }
    final int digits = pos - digitsFrom;
    if (!fits || digits == 0 || digits > MAX_DIGITS || (c[digitsFrom] == '0' && (digits > 1 || negative))
        || !delimitedHere()) {
      pos = from;
      return false;
    }
    number = negative ? n : -n;
    return true;
  }

  /** The word (null, true, false) followed by a delimiter. */
  private boolean takeWord(final String word) {
    final int n = word.length();
    if (pos + n > end || !match(pos, word)) {
      return false;
    }
    final int from = pos;
    pos += n;
    if (!delimitedHere()) {
      pos = from;
      return false;
    }
    return true;
  }

  /** What was just read ends here: a space, tab, comma or closing bracket follows. */
  private boolean delimitedHere() {
    if (pos >= end) {
      return false;
    }
    final char ch = c[pos];
    return ch == ' ' || ch == ',' || ch == '\t' || ch == '}' || ch == ']';
  }

  private void skipSpace() {
    while (pos < end && (c[pos] == ' ' || c[pos] == '\t')) {
      pos++;
    }
  }

  private boolean take(final char ch) {
    if (pos < end && c[pos] == ch) {
      pos++;
      return true;
    }
    return false;
  }
}
