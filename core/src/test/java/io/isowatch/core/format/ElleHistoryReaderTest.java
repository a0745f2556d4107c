package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.NO_TIME;
import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.txn;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ElleHistoryReaderTest {

  /** rw-register.edn and rw-register.json, with the EDN file's lines. */
  private static final List<Transaction> RW_REGISTER = List.of(
      txn("p0-0", "p0", TxnStatus.COMMITTED, 1000, 2000, 2, r("x", null), w("x", 1)),
      txn("p1-1", "p1", TxnStatus.ABORTED, 1001, 3001, 3, w("x", 2)),
      txn("p2-5", "p2", TxnStatus.UNKNOWN, 4000, NO_TIME, 7, w("y", 3)),
      txn("p5-7", "p5", TxnStatus.COMMITTED, 6000, 7000, 9, r("x", 1L), w("x", 4)),
      txn("p0-9", "p0", TxnStatus.UNKNOWN, 8000, NO_TIME, 12));

  private static History read(final String text) throws Exception {
    return new ElleHistoryReader().read(new StringReader(text));
  }

  @Test
  void shouldPairInvokesWithCompletionsWhenReadingEdn() throws Exception {
    // When
    final History h = Txns.read("rw-register.edn", new ElleHistoryReader()::read);

    // Then
    assertEquals(RW_REGISTER, h.transactions());
  }

  @Test
  void shouldReadTheSameHistoryWhenTheOpsAreAJsonArray() throws Exception {
    // When
    final History h = Txns.read("rw-register.json", new ElleHistoryReader()::read);

    // Then
    assertEquals(Txns.withoutLines(new History(RW_REGISTER)), Txns.withoutLines(h));
    assertEquals(List.of(1, 2, 6, 8, 10), h.transactions().stream().map(Transaction::line).toList());
  }

  @Test
  void shouldReadJsonLinesWhenThereIsNoArray() throws Exception {
    // When
    final History h = Txns.read("rw-register-lines.json", new ElleHistoryReader()::read);

    // Then
    assertEquals(List.of(
        txn("p0-1", "p0", TxnStatus.COMMITTED, NO_TIME, NO_TIME, 1, w("x", 2)),
        txn("p0-3", "p0", TxnStatus.COMMITTED, NO_TIME, NO_TIME, 3, r("x", 2L))),
        h.transactions());
  }

  @Test
  void shouldTakeCompletionsAloneWhenThereAreNoInvokes() throws Exception {
    // When
    final History h = Txns.read("completions.edn", new ElleHistoryReader()::read);

    // Then
    assertEquals(List.of(
        txn("p0-0", "p0", TxnStatus.COMMITTED, NO_TIME, NO_TIME, 1, w("x", 1), w("y", 3), w("x", 2)),
        txn("p1-1", "p1", TxnStatus.COMMITTED, NO_TIME, NO_TIME, 2, r("y", 3L), w("x", 4)),
        txn("p1-2", "p1", TxnStatus.ABORTED, NO_TIME, NO_TIME, 3, w("x", 5))),
        h.transactions());
  }

  @Test
  void shouldReadTaggedOpRecordsWhenJepsenWritesThem() throws Exception {
    // Given
    final String edn = "#jepsen.history.Op{:index 0, :time -1500, :type :invoke, :process 4, :f :txn, :value [[:w :k 1]]}\n"
        + "#jepsen.history.Op{:index 1, :time 2500, :type :ok, :process 4, :f :txn, :value [[:w :k 1]]}\n";

    // When
    final History h = read(edn);

    // Then
    assertEquals(List.of(txn("p4-0", "p4", TxnStatus.COMMITTED, -2, 3, 1, w("k", 1))), h.transactions());
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      {:type :invoke, :process 0, :value [[:w :x 2]]}                 | 2 | line 2: process 0 invokes again while its invoke at line 1 has not completed
      {:type :done, :process 1, :value [[:w :x 2]]}                   | 2 | line 2: unknown :type :done (expected :invoke, :ok, :fail or :info)
      {:type :ok, :value [[:w :x 2]]}                                 | 2 | line 2: op has no :process, so it cannot be paired or given a session
      {:process 1, :value [[:w :x 2]]}                                | 2 | line 2: op has no :type
      [:type :ok]                                                     | 2 | line 2: expected an op map like {:type :invoke, :f :txn, :value [...], :process 0}, got [:type :ok]
      {:type :ok, :process 1, :value [[:cas :x [1 2]]]}               | 2 | line 2: micro-op [:cas :x [1 2]]: the value must be a 64-bit integer or nil (or, for a list-append read, a vector of them)
      {:type :ok, :process 1, :value [[:append :x nil]]}              | 2 | line 2: micro-op [:append :x nil] appends nil
      {:type :ok, :process 1, :value [[:w :x]]}                       | 2 | line 2: micro-op [:w :x] must be [f k v], e.g. [:r :x 1] or [:w :x 2]
      {:type :ok, :process 1, :value [[:w :x nil]]}                   | 2 | line 2: micro-op [:w :x nil] writes nil
      {:type :ok, :process 1, :value [[:w 1.5 1]]}                    | 2 | line 2: micro-op [:w 1.5 1]: the key must be a keyword, an integer or a string
      {:type :ok, :process 1, :value 5}                               | 2 | line 2: :value must be a vector of micro-ops like [[:r :x nil] [:w :x 1]], got 5
      {:type :ok, :process 1, :time "now", :value []}                 | 2 | line 2: :time must be an integer, got "now"
      {:type :ok, :process 1}                                         | 2 | line 2: op has no :value
      {:type :ok, :process 1, :index 0, :value []}                    | 2 | line 2: duplicate transaction id 'p1-0' (first used at line 1)
      """)
  void shouldNameTheLineWhenAnOpIsInvalid(final String badOp, final int line, final String message) {
    // Given
    final String edn = "{:type :invoke, :process 0, :index 0, :value [[:w :x 1]]}\n" + badOp + "\n";
    final String text = message.contains("duplicate")
        ? "{:type :ok, :process 1, :index 0, :value []}\n" + badOp + "\n"
        : edn;

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> read(text));

    // Then
    assertEquals(line, e.line());
    assertEquals(message, e.getMessage());
  }

  @Test
  void shouldNameTheLineWhenJsonIsMalformed() {
    // Given
    final String json = "[{\"type\":\"ok\",\"process\":0,\"value\":[]},\n{\"type\":\"ok\",\"process\":1,\"value\":[}]";

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> read(json));

    // Then
    assertEquals(2, e.line());
    assertEquals(true, e.getMessage().startsWith("line 2: malformed JSON: "), e.getMessage());
  }

  @Test
  void shouldRejectTheHistoryWhenTheEdnVectorIsNotClosed() {
    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class,
        () -> read("\n[{:type :ok, :process 0, :value []}\n"));

    // Then
    assertEquals("line 2: EDN: the history opened here is not closed", e.getMessage());
  }
}
