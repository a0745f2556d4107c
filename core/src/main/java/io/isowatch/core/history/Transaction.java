package io.isowatch.core.history;

import java.util.List;
import java.util.Objects;

/**
 * One transaction of a history, as its client saw it.
 *
 * @param id unique id in the history
 * @param session the client session it ran in
 * @param seq its index in the session from 0, or {@link #NO_SEQ} when the source gives none (then
 *     source order within the session is session order)
 * @param status how it ended
 * @param start client-side start in microseconds since the epoch, or {@link #NO_TIME}
 * @param end client-side end in microseconds since the epoch, or {@link #NO_TIME}
 * @param ops operations in program order
 * @param tenant optional tenant, carried through; may be null
 * @param level optional declared isolation level, carried through; may be null
 * @param line 1-based source line (or record index) it came from, for messages; 0 if none
 */
public record Transaction(
    String id,
    String session,
    long seq,
    TxnStatus status,
    long start,
    long end,
    List<Op> ops,
    String tenant,
    String level,
    int line) {

  public static final long NO_SEQ = -1L;
  public static final long NO_TIME = Long.MIN_VALUE;

  public Transaction {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(status, "status");
    // A reader's ops with their keys' numbers are immutable already: kept, so the numbers reach the checker.
    ops = ops instanceof InternedOps ? ops : List.copyOf(ops);
  }

  public boolean hasSeq() {
    return seq != NO_SEQ;
  }

  /** True when both the start and the end time are known. */
  public boolean hasTimes() {
    return start != NO_TIME && end != NO_TIME;
  }

  public Transaction withSeq(final long newSeq) {
    return new Transaction(id, session, newSeq, status, start, end, ops, tenant, level, line);
  }

  /** Compact form used in explanations: {@code s1-7 [r(x,0) w(x,1017)]}. */
  @Override
  public String toString() {
    return id + " " + ops;
  }
}
