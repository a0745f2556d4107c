package io.isowatch.streams.testkit;

import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import java.util.List;

/** Small, valid {@link TransactionEvent}s for tests of the transport, not of the checker. */
public final class TestEvents {
  private TestEvents() {}

  /** A committed read-modify-write transaction {@code r(key,read) w(key,written)} with times. */
  public static TransactionEvent rmw(
      final String tenant, final String session, final long seq, final String txn,
      final String key, final Long read, final long written) {
    return TransactionEvent.newBuilder()
        .setTenant(tenant)
        .setSession(session)
        .setSeq(seq)
        .setTxn(txn)
        .setStatus(TxnStatus.COMMITTED)
        .setStartMicros(1_700_000_000_000_000L + seq * 1_000)
        .setEndMicros(1_700_000_000_000_000L + seq * 1_000 + 500)
        .setLevel("SERIALIZABLE")
        .setOps(List.of(new Op(OpType.READ, key, read), new Op(OpType.WRITE, key, written)))
        .build();
  }

  /** An aborted read-only transaction without times or declared level. */
  public static TransactionEvent abortedRead(
      final String tenant, final String session, final long seq, final String txn, final String key) {
    return TransactionEvent.newBuilder()
        .setTenant(tenant)
        .setSession(session)
        .setSeq(seq)
        .setTxn(txn)
        .setStatus(TxnStatus.ABORTED)
        .setOps(List.of(new Op(OpType.READ, key, null)))
        .build();
  }
}
