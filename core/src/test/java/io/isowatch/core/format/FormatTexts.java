package io.isowatch.core.format;

import io.isowatch.core.history.History;

/** Histories written as Elle EDN, as Elle JSON lines and as Aion, for tests outside this package. */
public final class FormatTexts {
  private FormatTexts() {}

  /** As scripts/jsonl-to-formats.py writes EDN ({@link EdnFastPathTest#edn}). */
  public static String edn(final History h) {
    return EdnFastPathTest.edn(h);
  }

  /** The same as Elle JSON lines ({@link ElleJsonFastPathTest#json}). */
  public static String json(final History h) {
    return ElleJsonFastPathTest.json(EdnFastPathTest.edn(h));
  }

  /** As Aion JSON, a transaction a line, as scripts/jsonl-to-formats.py writes it ({@link AionFastPathTest#aion}). */
  public static String aion(final History h) {
    return AionFastPathTest.aion(h, "lines");
  }
}
