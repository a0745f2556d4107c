package io.isowatch.core.format;

/**
 * A scanner for the op maps of an Elle/Jepsen EDN history as Jepsen and converters write them, straight
 * from the reader's characters to a {@link JepsenOp} whose value is already decoded ({@link
 * ElleHistoryAssembler.Mops}): no map, keyword, list or boxed number per op, and no {@code String} for a
 * key or process already seen (they are looked up in the assembler's {@link StringInterner} by their
 * characters).
 *
 * <p>It takes only what it can take with certainty, and answers {@code null} for anything else, having
 * consumed nothing; {@link EdnReader#read()} then reads the form as before, so errors and their
 * messages are the general reader's. It takes a map on one line whose keys are the keywords {@code
 * :type :f :process :value :time :index} (each at most once) or other keywords with a plain value (a
 * keyword, an integer, nil, true, false or a string without escapes), separated by spaces, tabs and
 * commas; with {@code :type} one of {@code :invoke :ok :fail :info}, {@code :f} a keyword or nil,
 * {@code :process} an integer or a keyword or nil, {@code :time} and {@code :index} integers or nil, and
 * {@code :value} nil or a vector of micro-ops {@code [:r k v]}, {@code [:w k v]}, {@code [:append k
 * v]} whose key is a keyword, an integer or a string without escapes and whose value is an integer (or
 * nil for a read). Integers are 64-bit, with no leading zero and no sign but {@code -}. Tokens,
 * strings, ops and nesting lie within the {@link InputLimits}. Every such form means the same to the
 * general reader. Not thread-safe.
 */
final class EdnFastPath {
  private static final int MAX_DIGITS = 19;
  private static final int DEPTH = 3; // the op map, :value, one micro-op
  /** Longer forms go to the general reader (they must fit in its buffer). */
  static final int MAX_FORM_CHARS = 1 << 14;

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
  private boolean nil;
  private int tokFrom;
  private int tokTo;
  private int start;
  private final ElleMopsBuffer buffer = new ElleMopsBuffer();

  EdnFastPath(final InputLimits limits, final StringInterner strings) {
    this.strings = strings;
    this.maxStringChars = limits.maxStringChars();
    this.maxOpsPerTxn = limits.maxOpsPerTxn();
    // Limits so low that a plain op may break them: let the general reader apply them.
    this.enabled = limits.maxDepth() > DEPTH && limits.maxStringChars() > "process".length()
        && limits.maxNumberChars() > MAX_DIGITS + 1;
  }

  /**
   * The op of the form on {@code chars[from, to)}, where {@code to} is the end of what is buffered
   * (the form must end before it), or null. {@link #consumed()} is then its length.
   */
  JepsenOp parse(final char[] chars, final int from, final int to, final int line, final long ordinal) {
    if (!enabled) {
      return null;
    }
    this.c = chars;
    this.pos = from;
    this.end = Math.min(to, from + MAX_FORM_CHARS);
    this.start = from;
    try {
      return op(line, ordinal);
    } finally {
      this.c = null;
    }
  }

  /** Characters taken by the last op {@link #parse} returned. */
  int consumed() {
    return pos - start;
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
    while (true) {
      skipSpace();
      if (take('}')) {
        break;
      }
      if (!take(':')) {
        return null;
      }
      final int field = fieldName();
      if (field < 0 || (field != F_OTHER && (seen & (1 << field)) != 0)) {
        return null;
      }
      seen |= 1 << field;
      if (!separator()) {
        return null;
      }
      skipSpace();
      switch (field) {
        case F_TYPE -> {
          if (!take(':') || !token() || (type = ElleMopsBuffer.type(c, tokFrom, tokTo)) == null) {
            return null;
          }
        }
        case F_F -> {
          if (takeWord("nil")) {
            f = null;
          } else if (!take(':') || !token()) {
            return null;
          } else {
            f = tokTo - tokFrom == 3 && c[tokFrom] == 't' && c[tokFrom + 1] == 'x' && c[tokFrom + 2] == 'n'
                ? "txn" : new String(c, tokFrom, tokTo - tokFrom);
          }
        }
        case F_PROCESS -> {
          if (takeWord("nil")) {
            process = null;
          } else if (take(':')) {
            if (!token()) {
              return null;
            }
            process = strings.intern(c, tokFrom, tokTo);
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
          if (!takeWord("nil")) {
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
          if (takeWord("nil")) {
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
      if (!delimitedHere()) {
        return null;
      }
    }
    if (type == null) {
      return null; // the general reader reports it
    }
    return new JepsenOp(type, f, process, value, time, index, line, ordinal);
  }

  /** The micro-ops of a {@code :value} vector, or null. */
  private ElleHistoryAssembler.Mops mops() {
    if (!take('[')) {
      return null;
    }
    int n = 0;
    while (true) {
      skipSpace();
      if (take(']')) {
        break;
      }
      if (n == maxOpsPerTxn || !take('[')) {
        return null;
      }
      skipSpace();
      if (!take(':') || !token()) {
        return null;
      }
      final byte kind = ElleMopsBuffer.kind(c, tokFrom, tokTo);
      if (kind == ElleMopsBuffer.NOT_A_KIND) {
        return null;
      }
      if (!separator()) {
        return null;
      }
      skipSpace();
      final String key;
      if (take(':')) {
        if (!token()) {
          return null;
        }
        key = strings.intern(c, tokFrom, tokTo);
      } else if (take('"')) {
        if (!string()) {
          return null;
        }
        // ElleNames.name: a string ":x" names the key x, as the keyword :x does.
        key = tokTo > tokFrom && c[tokFrom] == ':' ? strings.intern(c, tokFrom + 1, tokTo) : strings.intern(c, tokFrom, tokTo);
      } else {
        final int from = pos;
        if (!integer()) {
          return null;
        }
        key = strings.intern(c, from, pos);
      }
      if (!delimitedHere() || !separator()) {
        return null;
      }
      skipSpace();
      if (takeWord("nil")) {
        if (kind != ElleHistoryAssembler.Mops.READ) {
          return null; // writes and appends of nil are errors: the general reader reports them
        }
        nil = true;
      } else if (integer()) {
        nil = false;
      } else {
        return null; // list reads, other values
      }
      skipSpace();
      if (!take(']')) {
        return null;
      }
      buffer.set(n, kind, key, number, nil);
      n++;
      if (!delimitedHere()) {
        return null;
      }
    }
    return buffer.mops(n);
  }

  /** The known field whose keyword name follows, {@link #F_OTHER} for another name, -1 if none. */
  private int fieldName() {
    if (!token()) {
      return -1;
    }
    final int n = tokTo - tokFrom;
    switch (n) {
      case 1:
        return c[tokFrom] == 'f' ? F_F : F_OTHER;
      case 4:
        return match(tokFrom, "type") ? F_TYPE : match(tokFrom, "time") ? F_TIME : F_OTHER;
      case 5:
        return match(tokFrom, "value") ? F_VALUE : match(tokFrom, "index") ? F_INDEX : F_OTHER;
      case 7:
        return match(tokFrom, "process") ? F_PROCESS : F_OTHER;
      default:
        return F_OTHER;
    }
  }

  /** A value the op decoding ignores: a keyword, an integer, nil, true, false or a plain string. */
  private boolean plainValue() {
    if (take(':')) {
      return token();
    }
    if (take('"')) {
      return string();
    }
    if (takeWord("nil") || takeWord("true") || takeWord("false")) {
      return true;
    }
    return integer();
  }

  private boolean match(final int at, final String word) {
    return ElleMopsBuffer.matches(c, at, word);
  }


  /**
   * A keyword's or symbol's name up to the next delimiter, as {@link EdnReader}'s token: ASCII only
   * (a non-ASCII character may be whitespace to the general reader), not empty, within the limit.
   */
  private boolean token() {
    tokFrom = pos;
    while (pos < end) {
      final char ch = c[pos];
      if (ch >= 0x80) {
        return false;
      }
      if (isDelimiter(ch)) {
        break;
      }
      pos++;
    }
    tokTo = pos;
    // At the end of what is buffered the token may go on: only a delimiter ends it for certain.
    return pos < end && tokTo > tokFrom && tokTo - tokFrom <= maxStringChars && c[tokFrom] != '#';
  }

  /** A string's content after its opening quote, without escapes; {@link #tokFrom}..{@link #tokTo}. */
  private boolean string() {
    tokFrom = pos;
    while (pos < end) {
      final char ch = c[pos];
      if (ch == '"') {
        tokTo = pos++;
        return tokTo - tokFrom <= maxStringChars;
      }
      if (ch == '\\' || ch == '\n' || ch >= 0x80 || ch < 0x20) {
        return false;
      }
      pos++;
    }
    return false;
  }

  /** A 64-bit integer: an optional '-', 1 to 19 digits without a leading zero, then a delimiter. */
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
        || pos >= end || !isDelimiter(c[pos])) {
      pos = from;
      return false;
    }
    number = negative ? n : -n;
    return true;
  }

  /** The word (nil, true, false) followed by a delimiter. */
  private boolean takeWord(final String word) {
    final int n = word.length();
    if (pos + n >= end || !match(pos, word) || !isDelimiter(c[pos + n])) {
      return false;
    }
    pos += n;
    return true;
  }

  /** At least one space, tab or comma. */
  private boolean separator() {
    return pos < end && (c[pos] == ' ' || c[pos] == ',' || c[pos] == '\t');
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
    while (pos < end && (c[pos] == ' ' || c[pos] == ',' || c[pos] == '\t')) {
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

  private static boolean isDelimiter(final char ch) {
    return ch == ' ' || ch == ',' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ';' || ch == '"'
        || ch == '(' || ch == ')' || ch == '[' || ch == ']' || ch == '{' || ch == '}' || ch == '\f'
        || ch == 0x0B || (ch >= 0x1C && ch <= 0x1F);
  }
}
