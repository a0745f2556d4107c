package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;

/**
 * The sentence of each input finding whose wording does not depend on the engine that found it: the
 * engine and the batch checker kept in test scope as its differential oracle word them alike, so a
 * person reading {@code isowatch check}, the agent's summary or a published verdict sees one text.
 */
public final class FindingMessages {
  private FindingMessages() {}

  /** {@link FindingKind#DUPLICATE_TXN_ID} in a whole history. */
  public static String duplicateTxnId(final String txn) {
    return "transaction id '" + txn + "' appears more than once; ids must be unique in a history";
  }

  /** {@link FindingKind#INITIAL_VALUE_WRITE}. */
  public static String initialValueWrite(final String txn, final String key, final long value) {
    return "transaction " + txn + " writes " + key + "=" + value
        + ", the initial value; every written value must differ from it";
  }

  /** {@link FindingKind#NON_UNIQUE_WRITE}: {@code txn} is the second (or later) writer. */
  public static String nonUniqueWrite(final String txn, final String key, final long value) {
    return "value " + value + " is written to " + key + " more than once (again by " + txn
        + "); reads of it cannot be attributed";
  }

  /** {@link FindingKind#BLIND_WRITE}; {@code orderOpen} when the write leaves the key's version order open. */
  public static String blindWrite(final String txn, final String key, final boolean orderOpen) {
    return "transaction " + txn + " writes " + key + " without reading it first"
        + (orderOpen ? ", so the version order of " + key + " is open" : "");
  }

  /** {@link FindingKind#END_BEFORE_START}. */
  public static String endBeforeStart(final Transaction t) {
    return "transaction " + t.id() + " ends (" + t.end() + ") before it starts (" + t.start()
        + "); its times are not used";
  }

  /** {@link FindingKind#MISSING_TIMESTAMPS}. */
  public static String missingTimestamps(final String txn) {
    return "transaction " + txn + " has no usable start/end time, so SSER cannot be decided from real time";
  }

  /** {@link FindingKind#SESSION_TIME_OVERLAP}: {@code t} starts before its session predecessor ended. */
  public static String sessionTimeOverlap(final Transaction t, final String predecessor) {
    return "transaction " + t.id() + " starts before " + predecessor + ", its predecessor in session "
        + t.session() + ", ended";
  }

  /** {@link FindingKind#UNKNOWN_IGNORED}. */
  public static String unknownIgnored(final String txn) {
    return "indeterminate transaction " + txn + " was ignored: no committed transaction read its writes";
  }
}
