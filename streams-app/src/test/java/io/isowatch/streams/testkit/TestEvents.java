package io.isowatch.streams.testkit;

import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import java.util.ArrayList;
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
        .setOps(List.of(new Op(OpType.READ, key, read, null), new Op(OpType.WRITE, key, written, null)))
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
        .setOps(List.of(new Op(OpType.READ, key, null, null)))
        .build();
  }

  /**
   * A lost update of a fresh key: two committed read-modify-writes {@code <prefix>-a} and
   * {@code <prefix>-b}, each in a session of its own name, that both read the key's initial value 0
   * and write 1 and 2; both start at {@code startMicros}, a ends at {@code endMicros} and b 1 µs later.
   */
  public static List<TransactionEvent> lostUpdate(final String tenant, final String prefix, final String key,
      final long startMicros, final long endMicros) {
    final List<TransactionEvent> out = new ArrayList<>();
    for (final String side : List.of("a", "b")) {
      out.add(TransactionEvent.newBuilder()
          .setTenant(tenant).setSession(prefix + "-" + side).setSeq(0).setTxn(prefix + "-" + side)
          .setStatus(TxnStatus.COMMITTED).setStartMicros(startMicros)
          .setEndMicros(endMicros + ("a".equals(side) ? 0 : 1))
          .setOps(List.of(new Op(OpType.READ, key, 0L, null), new Op(OpType.WRITE, key, "a".equals(side) ? 1L : 2L, null)))
          .build());
    }
    return out;
  }
}
