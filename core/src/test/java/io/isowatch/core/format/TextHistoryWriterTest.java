package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextHistoryWriterTest {
  private static final long NO = Transaction.NO_TIME;
  private static final long NS = Transaction.NO_SEQ;

  private static Transaction t(final String id, final String session, final long seq, final TxnStatus status,
      final Op... ops) {
    return new Transaction(id, session, seq, status, NO, NO, List.of(ops), null, null, 0);
  }

  @Test
  void shouldWriteOneLinePerOpWhenTheHistoryIsTextNative() throws Exception {
    // Given
    final History h = new History(List.of(
        t("1", "1", NS, TxnStatus.COMMITTED, r("1", 0L), w("1", 100)),
        t("2", "2", NS, TxnStatus.COMMITTED, r("1", 100L), w("1", 150))));
    final StringWriter out = new StringWriter();

    // When
    final WriteReport report = new TextHistoryWriter().write(h, out);

    // Then
    assertEquals("r(1,0,1,1)\nw(1,100,1,1)\nr(1,100,2,2)\nw(1,150,2,2)\n", out.toString());
    assertEquals(WriteReport.lossless(2), report);
  }

  @Test
  void shouldReportEveryLossWhenTheHistoryHasMoreThanTheFormat() throws Exception {
    // Given
    final History h = new History(List.of(
        new Transaction("a", "alice", NS, TxnStatus.COMMITTED, 10L, 20L, List.of(r("1", 0L), w("1", 5)), "acme", null, 1),
        t("b", "bob", NS, TxnStatus.ABORTED, r("1", 5L), w("1", 6)),
        t("c", "bob", NS, TxnStatus.UNKNOWN, r("1", 5L), w("1", 7)),
        t("d", "bob", NS, TxnStatus.COMMITTED),
        t("e", "bob", NS, TxnStatus.COMMITTED, r("1", 5L), w("1", 8))));
    final StringWriter out = new StringWriter();

    // When
    final WriteReport report = HistoryIO.writeWithReport(h, HistoryFormat.TEXT, out);

    // Then
    assertEquals("r(1,0,1,1)\nw(1,5,1,1)\nr(1,5,2,2)\nw(1,8,2,2)\n", out.toString());
    assertEquals(new WriteReport(2, 1, 1, 1, 1, 1, true), report);
    assertEquals(3, report.dropped());
    assertEquals(false, report.isLossless());
  }

  @Test
  void shouldOrderEachSessionBySeqWhenSourceOrderDisagrees() throws Exception {
    // Given
    final History h = new History(List.of(
        t("10", "1", 1, TxnStatus.COMMITTED, r("1", 5L)),
        t("20", "2", NS, TxnStatus.COMMITTED, r("2", 0L)),
        t("11", "1", 0, TxnStatus.COMMITTED, r("1", 0L), w("1", 5))));
    final StringWriter out = new StringWriter();

    // When
    new TextHistoryWriter().write(h, out);

    // Then
    assertEquals("r(1,0,1,11)\nw(1,5,1,11)\nr(2,0,2,20)\nr(1,5,1,10)\n", out.toString());
  }

  @Test
  void shouldRenumberTxnIdsWhenTwoAreEqual() throws Exception {
    // Given
    final History h = new History(List.of(
        t("7", "1", NS, TxnStatus.COMMITTED, r("1", 0L)),
        t("7", "2", NS, TxnStatus.COMMITTED, r("1", 0L))));
    final StringWriter out = new StringWriter();

    // When
    final WriteReport report = new TextHistoryWriter().write(h, out);

    // Then
    assertEquals("r(1,0,1,1)\nr(1,0,2,2)\n", out.toString());
    assertEquals(true, report.idsRenumbered());
  }

  @Test
  void shouldReadBackTheSameHistoryWhenItIsTextNative() throws Exception {
    // Given
    final String text = "r(1,0,1,1)\nw(1,100,1,1)\nr(1,100,2,2)\nw(1,150,2,2)\nr(2,0,2,2)\nr(1,150,1,3)\nw(2,7,1,3)\n";
    final History h = new TextHistoryReader().read(new StringReader(text));
    final StringWriter out = new StringWriter();

    // When
    new TextHistoryWriter().write(h, out);

    // Then
    assertEquals(text, out.toString());
    assertEquals(h, new TextHistoryReader().read(new StringReader(out.toString())));
  }

  @Test
  void shouldRefuseBeforeWritingWhenAKeyIsNotAnInteger() {
    // Given
    final History h = new History(List.of(
        t("1", "1", NS, TxnStatus.COMMITTED, r("1", 0L)),
        new Transaction("2", "1", NS, TxnStatus.COMMITTED, NO, NO, List.of(r("x", 0L)), null, null, 12)));
    final StringWriter out = new StringWriter();

    // When
    final UnwritableHistoryException e =
        assertThrows(UnwritableHistoryException.class, () -> new TextHistoryWriter().write(h, out));

    // Then
    assertEquals("transaction '2' (line 12): key 'x' is not a non-negative decimal integer; "
        + "the text format has integer keys only", e.getMessage());
    assertEquals("", out.toString());
  }

  @Test
  void shouldRefuseWhenAReadReturnedNull() {
    // Given
    final History h = new History(List.of(t("1", "1", NS, TxnStatus.COMMITTED, r("3", null))));

    // When
    final UnwritableHistoryException e = assertThrows(UnwritableHistoryException.class,
        () -> new TextHistoryWriter().write(h, new StringWriter()));

    // Then
    assertEquals("transaction '1': read of key 3 returned null; the text format cannot express an absent key "
        + "(its initial value is 0)", e.getMessage());
  }

  @Test
  void shouldRefuseWhenAValueIsNegativeOrAKeyIsNotCanonical() {
    // Given
    final History negative = new History(List.of(t("1", "1", NS, TxnStatus.COMMITTED, r("3", -1L))));
    final History padded = new History(List.of(t("1", "1", NS, TxnStatus.COMMITTED, r("03", 1L))));

    // When
    final UnwritableHistoryException e1 = assertThrows(UnwritableHistoryException.class,
        () -> new TextHistoryWriter().write(negative, new StringWriter()));
    final UnwritableHistoryException e2 = assertThrows(UnwritableHistoryException.class,
        () -> new TextHistoryWriter().write(padded, new StringWriter()));

    // Then
    assertEquals("transaction '1': value -1 of key 3 is negative; the text format has non-negative values only",
        e1.getMessage());
    assertEquals("transaction '1': key '03' is not a non-negative decimal integer; the text format has integer keys only",
        e2.getMessage());
  }
}
