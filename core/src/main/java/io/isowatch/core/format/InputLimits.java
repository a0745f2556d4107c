package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

/**
 * Bounds on what one piece of a history file may hold, so that a hostile or broken file is
 * refused with a line naming the limit (an {@link InvalidHistoryException}) instead of exhausting
 * the stack or the heap. Every reader applies them; the defaults are far above what real
 * histories hold and can be changed with system properties ({@code -Disowatch.input.max-depth=…}).
 *
 * @param maxDepth how deeply collections may nest (JSON arrays and objects, EDN forms, discarded
 *     {@code #_} forms and tagged literals included)
 * @param maxLineChars characters in one line of a line-based format (JSONL, text)
 * @param maxStringChars characters in one string, keyword, symbol or JSON field name
 * @param maxNumberChars characters in one number literal
 * @param maxOpsPerTxn operations in one transaction
 */
public record InputLimits(int maxDepth, int maxLineChars, int maxStringChars, int maxNumberChars, int maxOpsPerTxn,
    int maxListElements) {
  static final String PREFIX = "isowatch.input.";
  public static final String MAX_DEPTH = "max-depth";
  public static final String MAX_LINE_CHARS = "max-line-chars";
  public static final String MAX_STRING_CHARS = "max-string-chars";
  public static final String MAX_NUMBER_CHARS = "max-number-chars";
  public static final String MAX_OPS_PER_TXN = "max-ops-per-txn";
  /** Elements in the list one list-append read returns. */
  public static final String MAX_LIST_ELEMENTS = "max-list-elements";

  /** The built-in defaults, before system properties. */
  public static final InputLimits BUILT_IN = new InputLimits(256, 16 << 20, 1 << 20, 1000, 100_000, 1_000_000);

  /** The limits of the register formats, with the built-in bound on list reads. */
  public InputLimits(final int maxDepth, final int maxLineChars, final int maxStringChars, final int maxNumberChars,
      final int maxOpsPerTxn) {
    this(maxDepth, maxLineChars, maxStringChars, maxNumberChars, maxOpsPerTxn, 1_000_000);
  }

  public InputLimits {
    if (maxDepth < 1 || maxLineChars < 1 || maxStringChars < 1 || maxNumberChars < 1 || maxOpsPerTxn < 1
        || maxListElements < 1) {
      throw new IllegalArgumentException("input limits must be >= 1");
    }
  }

  /** The built-in defaults, each overridden by its system property {@code isowatch.input.NAME} when set. */
  public static InputLimits defaults() {
    return new InputLimits(
        property(MAX_DEPTH, BUILT_IN.maxDepth),
        property(MAX_LINE_CHARS, BUILT_IN.maxLineChars),
        property(MAX_STRING_CHARS, BUILT_IN.maxStringChars),
        property(MAX_NUMBER_CHARS, BUILT_IN.maxNumberChars),
        property(MAX_OPS_PER_TXN, BUILT_IN.maxOpsPerTxn),
        property(MAX_LIST_ELEMENTS, BUILT_IN.maxListElements));
  }

  /**
   * The error for a piece of input beyond one limit, e.g. "line 7: line too long (input limit
   * max-line-chars=16777216, system property isowatch.input.max-line-chars)".
   */
  static InvalidHistoryException exceeded(final int line, final String what, final String limit, final long value) {
    return new InvalidHistoryException(line, what + " (input limit " + limit + "=" + value
        + ", system property " + PREFIX + limit + ")");
  }

  /** Jackson applying these limits (depth, strings, field names, numbers). */
  JsonFactory jsonFactory() {
    return JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(maxDepth)
            .maxStringLength(maxStringChars)
            .maxNameLength(maxStringChars)
            .maxNumberLength(maxNumberChars)
            .build())
        .build();
  }

  /** A JSON parser's failure at {@code line}: the limit it breaks, or else malformed JSON. */
  InvalidHistoryException jsonFailure(final int line, final JsonProcessingException e) {
    return e instanceof StreamConstraintsException c
        ? exceeded(line, c)
        : new InvalidHistoryException(line, "malformed JSON: " + e.getOriginalMessage(), e);
  }

  /** The line Jackson places {@code e} on, or {@code fallback} when it does not say. */
  static int lineOf(final JsonProcessingException e, final int fallback) {
    return e.getLocation() != null ? e.getLocation().getLineNr() : fallback;
  }

  /** Jackson's constraint failure as the limit it breaks, at {@code line}. */
  InvalidHistoryException exceeded(final int line, final StreamConstraintsException e) {
    final String m = String.valueOf(e.getOriginalMessage());
    if (m.contains("ting depth")) {
      return exceeded(line, "JSON nested too deeply", MAX_DEPTH, maxDepth);
    }
    if (m.contains("Number value length") || m.contains("number")) {
      return exceeded(line, "number literal too long", MAX_NUMBER_CHARS, maxNumberChars);
    }
    if (m.contains("Name length")) {
      return exceeded(line, "JSON field name too long", MAX_STRING_CHARS, maxStringChars);
    }
    if (m.contains("String value length")) {
      return exceeded(line, "JSON string too long", MAX_STRING_CHARS, maxStringChars);
    }
    return new InvalidHistoryException(line, "input limit: " + m, e);
  }

  private static int property(final String name, final int fallback) {
    final String v = System.getProperty(PREFIX + name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      final int n = Integer.parseInt(v.strip());
      if (n < 1) {
        throw new IllegalArgumentException();
      }
      return n;
    } catch (final IllegalArgumentException e) {
      throw new IllegalArgumentException("system property " + PREFIX + name + " must be an integer >= 1, got '" + v + "'");
    }
  }
}
