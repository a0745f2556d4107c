package io.isowatch.schemas.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AvroMappingTest {
  private static final Path SAMPLE = Path.of(System.getProperty("user.dir")).getParent()
      .resolve("samples/lost-update.jsonl");

  @Test
  void shouldRoundTripEveryTransactionOfTheSampleThroughTheAvroContract() throws Exception {
    // Given
    final History h = HistoryIO.read(SAMPLE, HistoryFormat.JSONL);
    for (final Transaction t : h.transactions()) {
      // When
      final Transaction back = TransactionEvents.toCore(TransactionEvents.fromCore("acme", t));
      // Then: equal except the source line, which Kafka records do not have
      assertEquals(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(),
          "acme", t.level(), 0), back);
    }
  }

  @Test
  void shouldKeepAbsentTimesAndNullReadsWhenMapping() {
    // Given
    final Transaction t = new Transaction("t1", "s1", 4, TxnStatus.UNKNOWN, 10, Transaction.NO_TIME,
        List.of(Op.read("x", null), Op.write("x", 7)), null, "SERIALIZABLE", 0);
    // When
    final TransactionEvent e = TransactionEvents.fromCore("t", t);
    // Then
    assertNull(e.getEndMicros());
    assertEquals(io.isowatch.schemas.TxnStatus.UNKNOWN, e.getStatus());
    assertNull(e.getOps().get(0).getValue());
    assertEquals(OpType.WRITE, e.getOps().get(1).getType());
    assertEquals(Transaction.NO_TIME, TransactionEvents.toCore(e).end());
  }

  @Test
  void shouldRefuseWriteWithoutValueAsImpossibleEvent() {
    final TransactionEvent e = TransactionEvent.newBuilder().setTenant("t").setSession("s").setSeq(0)
        .setTxn("t1").setStatus(io.isowatch.schemas.TxnStatus.COMMITTED)
        .setOps(List.of(io.isowatch.schemas.Op.newBuilder().setType(OpType.WRITE).setKey("x").setValue(null).build()))
        .build();
    final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> TransactionEvents.toCore(e));
    assertEquals("transaction t1 writes x without a value", ex.getMessage());
  }

  @Test
  void shouldMapLostUpdateWithItsCycleLevelsAndLatency() throws Exception {
    // Given
    final History h = HistoryIO.read(SAMPLE, HistoryFormat.JSONL);
    final Anomaly a = OnlineChecker.check(h, CheckOptions.defaults()).anomalies().get(0);
    final long detected = 1732180000005000L;
    // When
    final io.isowatch.schemas.Anomaly r = AnomalyRecords.toAvro("acme", a, detected,
        AnomalyRecords.latencyMicros(a, detected));
    // Then
    assertEquals("LostUpdate", r.getName());
    assertEquals("G-single", r.getType());
    assertEquals(List.of(Level.SSER, Level.SER, Level.SI), r.getViolates());
    assertEquals(List.of(EdgeKind.WW, EdgeKind.RW), r.getCycle().stream().map(io.isowatch.schemas.Edge::getKind).toList());
    assertEquals(List.of("bob-0", "carol-0"), r.getTransactions().stream().map(io.isowatch.schemas.AnomalyTransaction::getTxn).toList());
    assertEquals(32, r.getAnomalyId().length());
    // carol-0 ends last, at ...2100
    assertEquals(detected - 1732180000002100L, r.getDetectionLatencyMicros());
  }

  @Test
  void shouldRoundTripAppendsAndListReadsThroughTheAvroContract() throws Exception {
    // Given: the list-append sample (appends, list reads)
    final History h = HistoryIO.read(Path.of("..", "samples", "list-append.jsonl"), HistoryFormat.JSONL);
    for (final Transaction t : h.transactions()) {
      // When
      final TransactionEvent e = TransactionEvents.fromCore("acme", t);
      final Transaction back = TransactionEvents.toCore(e);
      // Then: equal except the source line, and seq (the sample has none; an event's is 0 then)
      assertEquals(new Transaction(t.id(), t.session(), 0, t.status(), t.start(), t.end(), t.ops(),
          "acme", t.level(), 0), back);
    }
    final TransactionEvent second = TransactionEvents.fromCore("acme", h.transactions().get(1));
    assertEquals(List.of(1L), second.getOps().get(0).getElements());
    assertEquals(OpType.APPEND, second.getOps().get(1).getType());
    assertNull(second.getOps().get(1).getElements());
  }

  @Test
  void shouldMapAListAppendAnomalyWithItsListsToAvroAndBack() throws Exception {
    // Given: the lost update of the list-append sample
    final History h = HistoryIO.read(Path.of("..", "samples", "list-append.jsonl"), HistoryFormat.JSONL);
    final Anomaly a = io.isowatch.core.online.WholeHistoryCheck.check(h, CheckOptions.defaults()).anomalies().get(0);
    // When
    final io.isowatch.schemas.Anomaly avro = AnomalyRecords.toAvro("acme", a, 0L, 0L);
    final Anomaly back = AnomalyRecords.toCore(avro);
    // Then
    assertEquals(a.transactions().stream().map(Transaction::ops).toList(),
        back.transactions().stream().map(Transaction::ops).toList());
  }

  @Test
  void shouldRefuseAListOnAnAppendAsImpossibleEvent() {
    final TransactionEvent e = TransactionEvent.newBuilder().setTenant("t").setSession("s").setSeq(0)
        .setTxn("t1").setStatus(io.isowatch.schemas.TxnStatus.COMMITTED)
        .setOps(List.of(io.isowatch.schemas.Op.newBuilder().setType(OpType.APPEND).setKey("x").setValue(1L)
            .setElements(List.of(1L)).build()))
        .build();
    final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> TransactionEvents.toCore(e));
    assertEquals("transaction t1: only a read returns a list, not the APPEND of x", ex.getMessage());
  }
}
