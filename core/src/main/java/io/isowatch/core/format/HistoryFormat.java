package io.isowatch.core.format;

/** History file formats IsoWatch reads (all) and writes (JSONL and TEXT at least). */
public enum HistoryFormat {
  /** Sniff the content to pick one of the others. */
  AUTO,
  /** The native JSON Lines contract: one transaction per line. */
  JSONL,
  /** The MTC/PolySI/Plume text format: one op per line, {@code r(key,value,session,txn)}. */
  TEXT,
  /** Elle/Jepsen rw-register histories, EDN or JSON. */
  ELLE,
  /** The Aion/TimeKiller JSON array. */
  AION;

  public static HistoryFormat parse(final String s) {
    return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
  }
}
