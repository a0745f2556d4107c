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
      ops.add(coreOp(e.getTxn(), op));
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
        .setType(op.isRead() ? OpType.READ : op.isAppend() ? OpType.APPEND : OpType.WRITE)
        .setKey(op.key())
        .setValue(op.value())
        .setElements(op.elements())
        .build();
  }

  /**
   * The core op of an Avro op of transaction {@code txn}: a read (of a list when it has
   * elements), a write or an append.
   *
   * @throws IllegalArgumentException for a write or append without a value, elements on an op
   *     other than a read, or a list whose last element is not the value
   */
  static Op coreOp(final String txn, final io.isowatch.schemas.Op op) {
    final List<Long> elements = op.getElements();
    if (elements != null && op.getType() != OpType.READ) {
      throw new IllegalArgumentException("transaction " + txn + ": only a read returns a list, not the "
          + op.getType() + " of " + op.getKey());
    }
    if (op.getType() != OpType.READ && op.getValue() == null) {
      throw new IllegalArgumentException("transaction " + txn + " " + (op.getType() == OpType.APPEND ? "appends to "
          : "writes ") + op.getKey() + " without a value");
    }
    return switch (op.getType()) {
      case READ -> {
        if (elements == null) {
          yield Op.read(op.getKey(), op.getValue());
        }
        final Long last = elements.isEmpty() ? null : elements.get(elements.size() - 1);
        if (!java.util.Objects.equals(last, op.getValue())) {
          throw new IllegalArgumentException("transaction " + txn + " reads " + op.getKey() + " = " + elements
              + " with value " + op.getValue() + ": the value of a list read is its last element");
        }
        yield Op.readList(op.getKey(), elements);
      }
      case WRITE -> Op.write(op.getKey(), op.getValue());
      case APPEND -> Op.append(op.getKey(), op.getValue());
    };
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
