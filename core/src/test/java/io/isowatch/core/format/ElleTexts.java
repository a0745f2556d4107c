package io.isowatch.core.format;

import io.isowatch.core.history.History;

/** Generated histories written as Elle EDN and as Elle JSON lines, for tests outside this package. */
public final class ElleTexts {
  private ElleTexts() {}

  /** As scripts/jsonl-to-formats.py writes EDN ({@link EdnFastPathTest#edn}). */
  public static String edn(final History h) {
    return EdnFastPathTest.edn(h);
  }

  /** The same as Elle JSON lines ({@link ElleJsonFastPathTest#json}). */
  public static String json(final History h) {
    return ElleJsonFastPathTest.json(EdnFastPathTest.edn(h));
  }
}
