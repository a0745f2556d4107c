package io.isowatch.schemas.avro;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps the {@code TransactionEvent} Avro contract to the core's {@link Transaction} and back. The
 * two mirror the native JSONL contract field for field, so the mapping loses nothing.
 */
public final class TransactionEvents {
  private TransactionEvents() {}

  /**
   * The core transaction of an event.
   *
   * @throws IllegalArgumentException when the event is well-formed Avro but impossible (e.g. a
   *     write without a value); callers turn that into a typed finding, not a crash
   */
  public static Transaction toCore(final TransactionEvent e) {
    final List<Op> ops = new ArrayList<>(e.getOps().size());
    for (final io.isowatch.schemas.Op op : e.getOps()) {
      ops.add(op.getType() == OpType.READ ? Op.read(op.getKey(), op.getValue()) : write(e, op));
    }
    return new Transaction(e.getTxn(), e.getSession(), e.getSeq(), status(e.getStatus()),
        e.getStartMicros() == null ? Transaction.NO_TIME : e.getStartMicros(),
        e.getEndMicros() == null ? Transaction.NO_TIME : e.getEndMicros(),
        ops, e.getTenant(), e.getLevel(), 0);
  }

  /** The event a producer publishes for one transaction of a tenant. */
  public static TransactionEvent fromCore(final String tenant, final Transaction t) {
    final List<io.isowatch.schemas.Op> ops = t.ops().stream().map(TransactionEvents::avroOp).toList();
    return TransactionEvent.newBuilder()
        .setTenant(tenant)
        .setSession(t.session())
        .setSeq(t.hasSeq() ? t.seq() : 0L)
        .setTxn(t.id())
        .setStatus(avroStatus(t.status()))
        .setStartMicros(t.start() == Transaction.NO_TIME ? null : t.start())
        .setEndMicros(t.end() == Transaction.NO_TIME ? null : t.end())
        .setLevel(t.level())
        .setOps(ops)
        .build();
  }

  static io.isowatch.schemas.Op avroOp(final Op op) {
    return io.isowatch.schemas.Op.newBuilder()
        .setType(op.isRead() ? OpType.READ : OpType.WRITE)
        .setKey(op.key())
        .setValue(op.value())
        .build();
  }

  private static Op write(final TransactionEvent e, final io.isowatch.schemas.Op op) {
    if (op.getValue() == null) {
      throw new IllegalArgumentException("transaction " + e.getTxn() + " writes " + op.getKey() + " without a value");
    }
    return Op.write(op.getKey(), op.getValue());
  }

  static TxnStatus status(final io.isowatch.schemas.TxnStatus s) {
    return switch (s) {
      case COMMITTED -> TxnStatus.COMMITTED;
      case ABORTED -> TxnStatus.ABORTED;
      case UNKNOWN -> TxnStatus.UNKNOWN;
    };
  }

  static io.isowatch.schemas.TxnStatus avroStatus(final TxnStatus s) {
    return switch (s) {
      case COMMITTED -> io.isowatch.schemas.TxnStatus.COMMITTED;
      case ABORTED -> io.isowatch.schemas.TxnStatus.ABORTED;
      case UNKNOWN -> io.isowatch.schemas.TxnStatus.UNKNOWN;
    };
  }
}
