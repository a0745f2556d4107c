package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonlRoundTripTest {
  private static final long NO = Transaction.NO_TIME;
  private static final long NS = Transaction.NO_SEQ;

  @Test
  void shouldWriteTheContractShapeWhenGivenTheReferenceTransaction() throws Exception {
    // Given
    final Transaction t = new Transaction("s1-7", "s1", NS, TxnStatus.COMMITTED, 1732180000000123L,
        1732180000000456L, List.of(r("x", 0L), w("x", 1017)), null, null, 1);
    final StringWriter out = new StringWriter();

    // When
    try (JsonlHistoryWriter writer = new JsonlHistoryWriter(out)) {
      writer.write(t);
    }

    // Then
    assertEquals("{\"session\":\"s1\",\"txn\":\"s1-7\",\"status\":\"committed\",\"start\":1732180000000123,"
        + "\"end\":1732180000000456,\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0},{\"t\":\"w\",\"k\":\"x\",\"v\":1017}]}\n",
        out.toString());
  }

  @Test
  void shouldWriteOptionalFieldsOnlyWhenPresent() throws Exception {
    // Given
    final Transaction t = new Transaction("a", "s", 3, TxnStatus.UNKNOWN, NO, 9L,
        List.of(r("k", null)), "acme", "SI", 1);
    final StringWriter out = new StringWriter();

    // When
    try (JsonlHistoryWriter writer = new JsonlHistoryWriter(out)) {
      writer.write(t);
    }

    // Then
    assertEquals("{\"session\":\"s\",\"txn\":\"a\",\"seq\":3,\"status\":\"unknown\",\"end\":9,\"tenant\":\"acme\","
        + "\"level\":\"SI\",\"ops\":[{\"t\":\"r\",\"k\":\"k\",\"v\":null}]}\n", out.toString());
  }

  @Test
  void shouldReadBackTheSameHistoryWhenValuesAreExtreme() throws Exception {
    // Given
    final History h = new History(List.of(
        new Transaction("t1", "s1", 0, TxnStatus.COMMITTED, 0L, Long.MAX_VALUE,
            List.of(r("x", null), w("x", Long.MIN_VALUE), w("y", Long.MAX_VALUE), r("y", -1L)), null, null, 1),
        new Transaction("t2", "сессия 2", NS, TxnStatus.ABORTED, -5L, -1L,
            List.of(r("ключ", 0L), w("键", 42), r("🔑", null), w("quote\"back\\slash\ttab\u0001", 7)), "tenant é", null, 2),
        new Transaction("t3", "s1", 1, TxnStatus.UNKNOWN, Long.MIN_VALUE + 1, NO, List.of(), null, "READ COMMITTED", 3),
        new Transaction("", "", NS, TxnStatus.COMMITTED, NO, NO, List.of(r("", 1L)), null, null, 4)));
    final StringWriter out = new StringWriter();

    // When
    HistoryIO.write(h, HistoryFormat.JSONL, out);
    final History back = new JsonlHistoryReader().read(new StringReader(out.toString()));

    // Then
    assertEquals(h, back);
    assertEquals(4, out.toString().lines().count());
  }

  @Test
  void shouldLeaveTheWriterOpenAndFlushedWhenWritingThroughTheFacade() throws Exception {
    // Given
    final History h = new History(List.of(new Transaction("a", "s", NS, TxnStatus.COMMITTED, NO, NO,
        List.of(w("x", 1)), null, null, 1)));
    final StringWriter out = new StringWriter();

    // When
    final WriteReport report = HistoryIO.writeWithReport(h, HistoryFormat.JSONL, out);
    out.write("# still open\n");

    // Then
    assertEquals(WriteReport.lossless(1), report);
    assertEquals("{\"session\":\"s\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"x\",\"v\":1}]}\n"
        + "# still open\n", out.toString());
  }

  @Test
  void shouldHandEachLineToTheWriterWhenWritingIncrementally() throws Exception {
    // Given
    final StringWriter out = new StringWriter();
    final JsonlHistoryWriter writer = new JsonlHistoryWriter(out);

    // When
    writer.write(new Transaction("a", "s", NS, TxnStatus.ABORTED, NO, NO, List.of(), null, null, 0));
    final String afterOne = out.toString();
    writer.write(new Transaction("b", "s", NS, TxnStatus.ABORTED, NO, NO, List.of(), null, null, 0));

    // Then
    assertEquals("{\"session\":\"s\",\"txn\":\"a\",\"status\":\"aborted\",\"ops\":[]}\n", afterOne);
    assertEquals(afterOne + "{\"session\":\"s\",\"txn\":\"b\",\"status\":\"aborted\",\"ops\":[]}\n", out.toString());
  }
}
