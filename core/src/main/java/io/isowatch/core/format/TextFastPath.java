package io.isowatch.core.format;

/**
 * A scanner for the op lines of the text format, {@code r(key,value,session,txn)} or {@code
 * w(key,value,session,txn)}, straight from the line's characters: no regular expression, no {@code
 * String} of the line, no {@code Long} per number.
 *
 * <p>It takes a line only when {@link TextHistoryReader}'s pattern matches it and the numbers are
 * what the pattern's groups parse to: optional spaces, tabs, vertical tabs and form feeds (the
 * pattern's {@code \s} within a line) around the letter's parenthesised numbers, each an optional
 * {@code -} and 1 to 18 ASCII digits (so that it cannot overflow). Anything else, comments, blank
 * lines, errors and longer numbers included, it declines, and the reader reads the line as before,
 * with its messages. Not thread-safe.
 */
final class TextFastPath {
  /** Digits that always fit in a long. */
  private static final int MAX_DIGITS = 18;

  private final StringInterner strings;
  private char[] c;
  private int pos;
  private int end;
  private long number;

  /** After a line {@link #scan} took: whether it is a read, and its numbers and key. */
  boolean read;
  long value;
  long session;
  long txn;
  String key;
  private int numFrom;
  private int numTo;

  TextFastPath(final StringInterner strings) {
    this.strings = strings;
  }

  /** Whether the line {@code chars[from, to)} is an op line this scanner takes; sets the fields if so. */
  boolean scan(final char[] chars, final int from, final int to) {
    this.c = chars;
    this.pos = from;
    this.end = to;
    try {
      return line();
    } finally {
      this.c = null;
    }
  }

  /** The session as the reader names it (its canonical decimal), interned. */
  String sessionName() {
    return strings.intern(Long.toString(session));
  }

  private boolean line() {
    skipSpace();
    if (pos >= end) {
      return false;
    }
    final char letter = c[pos];
    if (letter != 'r' && letter != 'w') {
      return false;
    }
    pos++;
    if (pos >= end || c[pos++] != '(') {
      return false;
    }
    if (!number()) {
      return false;
    }
    final long k = number;
    final boolean canonical = canonical();
    final int keyFrom = numFrom;
    final int keyTo = numTo;
    if (!comma() || !number()) {
      return false;
    }
    final long v = number;
    if (!comma() || !number()) {
      return false;
    }
    final long s = number;
    if (!comma() || !number()) {
      return false;
    }
    final long t = number;
    skipSpace();
    if (pos >= end || c[pos++] != ')') {
      return false;
    }
    skipSpace();
    if (pos != end) {
      return false;
    }
    read = letter == 'r';
    value = v;
    session = s;
    txn = t;
    // A key spelt canonically is looked up by its characters; 007 or -0 by its canonical name.
    key = canonical ? strings.intern(c, keyFrom, keyTo) : strings.intern(Long.toString(k));
    return true;
  }

  private boolean comma() {
    skipSpace();
    return pos < end && c[pos++] == ',';
  }

  /** {@code \s*-?\d{1,18}\s*}: sets number, numFrom, numTo (the sign and digits). */
  private boolean number() {
    skipSpace();
    numFrom = pos;
    final boolean negative = pos < end && c[pos] == '-';
    if (negative) {
      pos++;
    }
    final int digitsFrom = pos;
    long n = 0;
    while (pos < end) {
      final char d = c[pos];
      if (d < '0' || d > '9') {
        break;
      }
      n = n * 10 + (d - '0');
      pos++;
    }
    final int digits = pos - digitsFrom;
    if (digits == 0 || digits > MAX_DIGITS) {
      return false;
    }
    numTo = pos;
    number = negative ? -n : n;
    skipSpace();
    return true;
  }

  /** Whether the last number is spelt as Long.toString spells it (no leading zero, no -0). */
  private boolean canonical() {
    final int digitsFrom = c[numFrom] == '-' ? numFrom + 1 : numFrom;
    if (c[digitsFrom] != '0') {
      return true;
    }
    return numTo - numFrom == 1;
  }

  private void skipSpace() {
    while (pos < end) {
      final char ch = c[pos];
      if (ch != ' ' && ch != '\t' && ch != '\u000B' && ch != '\f') {
        return;
      }
      pos++;
    }
  }
}
