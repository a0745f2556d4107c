package io.isowatch.core.check;

import java.util.List;

/**
 * Why a level is {@link Verdict#UNKNOWN}: the sentences of {@link CheckResult#reasons()} that the
 * engine and the batch checker kept in test scope as its differential oracle share.
 */
public final class UnknownReasons {
  /** SSER without usable times on some counted transaction. */
  public static final String MISSING_TIMES = "real-time order needs start and end times, and some transactions "
      + "have none; no violation is certain without them";

  private UnknownReasons() {}

  /** A key whose values repeat, so its reads cannot be attributed. */
  public static String valuesNotUnique(final String key) {
    return "values written to " + key + " are not unique, so its reads cannot be attributed";
  }

  /** A key with {@code heads} versions written with no read of the key first. */
  public static String versionsWithoutRead(final long heads, final String key) {
    return heads + " version(s) of " + key + " were written without a read of the key first (blind writes or "
        + "unattributable reads), so their place in its version order is open";
  }

  /**
   * The reason of a level left open by keys' version orders.
   *
   * @param keyReasons the first keys' reasons ({@link #valuesNotUnique}, {@link #versionsWithoutRead})
   * @param keys how many keys are open in all, {@code keyReasons} or more
   */
  public static String versionOrderOpen(final List<String> keyReasons, final long keys) {
    return "the version order is not determined by the history: " + String.join("; ", keyReasons)
        + (keys > keyReasons.size() ? " (" + keys + " keys in all)" : "") + "; no violation is certain";
  }
}
