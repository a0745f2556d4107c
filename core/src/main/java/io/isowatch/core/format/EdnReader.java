package io.isowatch.core.format;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small streaming EDN reader, enough for Jepsen and Elle histories without a Clojure dependency.
 *
 * <p>Values map to Java as follows: maps to {@link LinkedHashMap}, vectors and lists to {@link
 * ArrayList}, sets to {@link LinkedHashSet}, keywords to {@link Keyword}, symbols to {@link
 * Symbol}, strings to {@link String}, characters to {@link Character}, integers to {@link Long}
 * (or {@link BigInteger} beyond 64 bits or with an {@code N} suffix), other numbers to {@link
 * Double} (or {@link BigDecimal} with an {@code M} suffix), {@code nil} to null and booleans to
 * {@link Boolean}. Commas are whitespace, {@code ;} starts a comment, {@code #_} discards the next
 * form, and a tagged literal ({@code #inst "…"}, {@code #jepsen.history.Op{…}}) reads as its value
 * with the tag dropped: histories need the data, not the record types.
 */
final class EdnReader {
  /** An EDN keyword such as {@code :type} or {@code :jepsen/op}. */
  record Keyword(String name) {
    @Override
    public String toString() {
      return ":" + name;
    }
  }

  /** An EDN symbol other than nil, true and false. */
  record Symbol(String name) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final int EOF = -1;

  private final Reader in;
  private final InputLimits limits;
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int limit;
  private int line = 1;

  EdnReader(final Reader in) {
    this(in, InputLimits.defaults());
  }

  EdnReader(final Reader in, final InputLimits limits) {
    this.in = in;
    this.limits = limits;
  }

  /**
   * Skips whitespace, commas, comments and discarded forms. Returns the next character without
   * consuming it, or -1 at the end of input.
   */
  int peekSignificant() throws IOException, InvalidHistoryException {
    return peekSignificant(0);
  }

  /**
   * As {@link #peekSignificant()} inside a form nested {@code depth} deep: a discarded form is
   * read one level deeper, so that {@code #_[#_[#_[…} counts against the depth limit like any
   * other nesting (it used to restart at depth 0 and overflow the stack).
   */
  private int peekSignificant(final int depth) throws IOException, InvalidHistoryException {
    while (true) {
      final int c = peek(0);
      if (c == EOF) {
        return EOF;
      }
      if (Character.isWhitespace(c) || c == ',') {
        next();
      } else if (c == ';') {
        while (peek(0) != EOF && peek(0) != '\n') {
          next();
        }
      } else if (c == '#' && peek(1) == '_') {
        next();
        next();
        read(depth + 1);
      } else {
        return c;
      }
    }
  }

  /** The 1-based line of the next character. */
  int line() {
    return line;
  }

  /** Consumes the next character, which the caller has peeked. */
  void skipChar() throws IOException {
    next();
  }

  /**
   * The op map that comes next (after {@link #peekSignificant()}) when {@code fast} takes it, consumed;
   * null, with nothing consumed, when the form is for {@link #read()}.
   */
  JepsenOp readFast(final EdnFastPath fast, final long ordinal) throws IOException {
    if (limit - pos < EdnFastPath.MAX_FORM_CHARS) {
      fill(EdnFastPath.MAX_FORM_CHARS);
    }
    final JepsenOp op = fast.parse(buf, pos, limit, line, ordinal);
    if (op != null) {
      pos += fast.consumed(); // one line: no newline to count
    }
    return op;
  }

  /** Reads the next form. */
  Object read() throws IOException, InvalidHistoryException {
    return read(0);
  }

  private Object read(final int depth) throws IOException, InvalidHistoryException {
    if (depth > limits.maxDepth()) {
      throw InputLimits.exceeded(line, "EDN: forms nested too deeply", InputLimits.MAX_DEPTH, limits.maxDepth());
    }
    final int c = peekSignificant(depth);
    if (c == EOF) {
      throw error("unexpected end of input");
    }
    switch (c) {
      case '{':
        next();
        return map(depth);
      case '[':
        next();
        return sequence(']', depth);
      case '(':
        next();
        return sequence(')', depth);
      case '"':
        next();
        return string();
      case ':':
        next();
        final String name = token();
        if (name.isEmpty()) {
          throw error("':' must start a keyword");
        }
        return new Keyword(name);
      case '\\':
        next();
        return character();
      case '#':
        next();
        return dispatch(depth);
      case ')':
      case ']':
      case '}':
        throw error("unexpected '" + (char) c + "'");
      default:
        return atom(token());
    }
  }

  private Map<Object, Object> map(final int depth) throws IOException, InvalidHistoryException {
    final int startLine = line;
    final Map<Object, Object> map = new LinkedHashMap<>();
    while (true) {
      final int c = peekSignificant(depth + 1);
      if (c == '}') {
        next();
        return map;
      }
      if (c == EOF) {
        throw error("map opened at line " + startLine + " is not closed");
      }
      final Object key = read(depth + 1);
      if (peekSignificant(depth + 1) == '}') {
        throw error("map opened at line " + startLine + " has a key without a value: " + key);
      }
      map.put(key, read(depth + 1));
    }
  }

  private List<Object> sequence(final char close, final int depth) throws IOException, InvalidHistoryException {
    final int startLine = line;
    final List<Object> items = new ArrayList<>();
    while (true) {
      final int c = peekSignificant(depth + 1);
      if (c == close) {
        next();
        return items;
      }
      if (c == EOF) {
        throw error("'" + (close == ']' ? '[' : '(') + "' opened at line " + startLine + " is not closed");
      }
      items.add(read(depth + 1));
    }
  }

  private Object dispatch(final int depth) throws IOException, InvalidHistoryException {
    final int c = peek(0);
    if (c == '{') {
      next();
      return new LinkedHashSet<>(sequence('}', depth));
    }
    if (c == '#') {
      next();
      final String name = token();
      return switch (name) {
        case "Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        case "NaN" -> Double.NaN;
        default -> throw error("unknown symbolic value ##" + name);
      };
    }
    if (c == '"') {
      next();
      return string(); // a regex literal: its source text is as good as any
    }
    final String tag = token();
    if (tag.isEmpty()) {
      throw error("'#' must start a set, a tagged literal or a discard");
    }
    // Tagged literal: keep the value, drop the tag (see class comment).
    return read(depth + 1);
  }

  private String string() throws IOException, InvalidHistoryException {
    final int startLine = line;
    final StringBuilder sb = new StringBuilder();
    while (true) {
      final int c = next();
      if (c == EOF) {
        throw error("string opened at line " + startLine + " is not closed");
      }
      if (c == '"') {
        return sb.toString();
      }
      if (sb.length() == limits.maxStringChars()) {
        throw InputLimits.exceeded(startLine, "EDN: string too long", InputLimits.MAX_STRING_CHARS, limits.maxStringChars());
      }
      if (c != '\\') {
        sb.append((char) c);
        continue;
      }
      final int e = next();
      switch (e) {
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'r' -> sb.append('\r');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case '"' -> sb.append('"');
        case '\\' -> sb.append('\\');
        case 'u' -> sb.append(unicode());
        default -> throw error("unknown string escape '\\" + (e == EOF ? "" : Character.toString(e)) + "'");
      }
    }
  }

  private char unicode() throws IOException, InvalidHistoryException {
    int code = 0;
    for (int i = 0; i < 4; i++) {
      final int digit = Character.digit(next(), 16);
      if (digit < 0) {
        throw error("\\u needs four hex digits");
      }
      code = code * 16 + digit;
    }
    return (char) code;
  }

  private Character character() throws IOException, InvalidHistoryException {
    final int first = next();
    if (first == EOF) {
      throw error("unexpected end of input after '\\'");
    }
    // A single delimiter character (\( or \,) stands for itself; otherwise read a name like \newline.
    final String rest = isDelimiter(peek(0)) ? "" : token();
    final String name = (char) first + rest;
    if (name.length() == 1) {
      return name.charAt(0);
    }
    return switch (name) {
      case "newline" -> '\n';
      case "space" -> ' ';
      case "tab" -> '\t';
      case "return" -> '\r';
      case "backspace" -> '\b';
      case "formfeed" -> '\f';
      default -> {
        if (name.length() == 5 && name.charAt(0) == 'u') {
          try {
            yield (char) Integer.parseInt(name.substring(1), 16);
          } catch (final NumberFormatException e) {
            throw error("bad character literal \\" + name);
          }
        }
        throw error("bad character literal \\" + name);
      }
    };
  }

  private Object atom(final String token) throws InvalidHistoryException {
    final char first = token.charAt(0);
    final boolean numeric = Character.isDigit(first)
        || ((first == '-' || first == '+') && token.length() > 1 && Character.isDigit(token.charAt(1)));
    if (numeric) {
      return number(token);
    }
    return switch (token) {
      case "nil" -> null;
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> new Symbol(token);
    };
  }

  private Object number(final String token) throws InvalidHistoryException {
    if (token.length() > limits.maxNumberChars()) {
      // BigInteger and BigDecimal parse in time quadratic in the digits: refuse before parsing.
      throw InputLimits.exceeded(line, "EDN: number literal too long", InputLimits.MAX_NUMBER_CHARS, limits.maxNumberChars());
    }
    try {
      if (token.endsWith("N")) {
        return new BigInteger(token.substring(0, token.length() - 1));
      }
      if (token.endsWith("M")) {
        return new BigDecimal(token.substring(0, token.length() - 1));
      }
      if (token.indexOf('/') > 0) {
        final int slash = token.indexOf('/');
        return Double.parseDouble(token.substring(0, slash)) / Double.parseDouble(token.substring(slash + 1));
      }
      if (token.indexOf('.') >= 0 || token.indexOf('e') >= 0 || token.indexOf('E') >= 0) {
        return Double.parseDouble(token);
      }
      final BigInteger big = new BigInteger(token.startsWith("+") ? token.substring(1) : token);
      return big.bitLength() < Long.SIZE ? (Object) big.longValue() : big;
    } catch (final NumberFormatException e) {
      throw error("bad number '" + token + "'");
    }
  }

  /** Reads symbol/keyword/number characters up to the next delimiter. */
  private String token() throws IOException, InvalidHistoryException {
    final StringBuilder sb = new StringBuilder(16);
    while (!isDelimiter(peek(0))) {
      if (sb.length() == limits.maxStringChars()) {
        throw InputLimits.exceeded(line, "EDN: symbol or keyword too long", InputLimits.MAX_STRING_CHARS,
            limits.maxStringChars());
      }
      sb.append((char) next());
    }
    return sb.toString();
  }

  private static boolean isDelimiter(final int c) {
    return c == EOF || Character.isWhitespace(c) || c == ',' || c == ';' || c == '"'
        || c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}';
  }

  private InvalidHistoryException error(final String message) {
    return new InvalidHistoryException(line, "EDN: " + message);
  }

  private int peek(final int ahead) throws IOException {
    if (pos + ahead >= limit && !fill(ahead + 1)) {
      return EOF;
    }
    return buf[pos + ahead];
  }

  private int next() throws IOException {
    final int c = peek(0);
    if (c != EOF) {
      pos++;
      if (c == '\n') {
        line++;
      }
    }
    return c;
  }

  /** Ensures at least {@code wanted} unread characters are buffered, unless the input ends first. */
  private boolean fill(final int wanted) throws IOException {
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, limit - pos);
      limit -= pos;
      pos = 0;
    }
    while (limit < wanted) {
      final int n = in.read(buf, limit, buf.length - limit);
      if (n < 0) {
        return false;
      }
      limit += n;
    }
    return true;
  }
}
