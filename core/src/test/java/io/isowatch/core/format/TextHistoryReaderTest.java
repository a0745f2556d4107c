package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.NO_TIME;
import static io.isowatch.core.format.Txns.committed;
import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.txn;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.history.TxnStatus;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextHistoryReaderTest {

  private static History read(final String text) throws Exception {
    return new TextHistoryReader().read(new StringReader(text));
  }

  @Test
  void shouldGroupLinesByGlobalTxnIdWhenReadingAPolySiHistory() throws Exception {
    // When
    final History h = Txns.read("polysi.txt", new TextHistoryReader()::read);

    // Then
    assertEquals(List.of(
        committed("1", "1", 1, r("1", 0L), w("1", 100)),
        committed("2", "2", 3, r("1", 100L), w("1", 150), r("2", 0L)),
        txn("aborted-L6", "2", TxnStatus.ABORTED, NO_TIME, NO_TIME, 6, w("1", 999)),
        committed("3", "1", 7, r("1", 150L), w("2", 7))),
        h.transactions());
  }

  @Test
  void shouldDropTheExplicitInitialTransactionWhenTheFileSpellsItOut() throws Exception {
    // When
    final History h = Txns.read("isovista.txt", new TextHistoryReader()::read);

    // Then
    assertEquals(List.of(
        committed("1", "1", 3, w("1", 1), r("2", 0L)),
        committed("2", "2", 5, r("1", 1L), w("2", 1))),
        h.transactions());
  }

  @Test
  void shouldKeepAFirstTransactionWhenItAlsoReads() throws Exception {
    // Given
    final String text = "r(1,0,0,0)\nw(1,0,0,0)\n";

    // When
    final History h = read(text);

    // Then
    assertEquals(List.of(committed("0", "0", 1, r("1", 0L), w("1", 0))), h.transactions());
  }

  @Test
  void shouldJoinNonConsecutiveLinesWhenTheyShareATxnId() throws Exception {
    // Given
    final String text = "r(1,0,1,1)\nr(2,0,2,2)\nw(1,5,1,1)\n";

    // When
    final History h = read(text);

    // Then
    assertEquals(List.of(
        committed("1", "1", 1, r("1", 0L), w("1", 5)),
        committed("2", "2", 2, r("2", 0L))),
        h.transactions());
  }

  @Test
  void shouldSplitAbortedOpsWhenTheirSessionsDiffer() throws Exception {
    // Given
    final String text = "w(1,5,1,-1)\nw(1,6,2,-1)\nw(1,7,2,-1)\nr(1,0,3,3)\nw(1,8,2,-1)\n";

    // When
    final History h = read(text);

    // Then
    assertEquals(List.of(
        txn("aborted-L1", "1", TxnStatus.ABORTED, NO_TIME, NO_TIME, 1, w("1", 5)),
        txn("aborted-L2", "2", TxnStatus.ABORTED, NO_TIME, NO_TIME, 2, w("1", 6), w("1", 7)),
        committed("3", "3", 4, r("1", 0L)),
        txn("aborted-L5", "2", TxnStatus.ABORTED, NO_TIME, NO_TIME, 5, w("1", 8))),
        h.transactions());
  }

  @Test
  void shouldCanonicaliseNumbersWhenLinesHaveSpacesCommentsAndLeadingZeros() throws Exception {
    // Given
    final String text = "# a comment\n\n  r( 007 , -3 , 01 , 9 )  \n#\nw(7,4,1,9)\n";

    // When
    final History h = read(text);

    // Then
    assertEquals(List.of(committed("9", "1", 3, r("7", -3L), w("7", 4))), h.transactions());
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      x(1,0,1,1)               | 2 | line 2: expected r(key,value,session,txn) or w(key,value,session,txn) with integers, got 'x(1,0,1,1)'
      r(a,0,1,1)               | 2 | line 2: expected r(key,value,session,txn) or w(key,value,session,txn) with integers, got 'r(a,0,1,1)'
      r(1,0,1)                 | 2 | line 2: expected r(key,value,session,txn) or w(key,value,session,txn) with integers, got 'r(1,0,1)'
      r(1,0,2,1)               | 2 | line 2: transaction 1 is in session 1 (line 1) but this line puts it in session 2
      r(1,0,1,-2)              | 2 | line 2: txn must be >= 0, or -1 for an operation of an aborted transaction, got -2
      r(1,99999999999999999999,1,1) | 2 | line 2: value 99999999999999999999 is outside the 64-bit range
      """)
  void shouldNameTheLineWhenALineIsInvalid(final String badLine, final int line, final String message) {
    // Given
    final String text = "r(1,0,1,1)\n" + badLine + "\n";

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> read(text));

    // Then
    assertEquals(line, e.line());
    assertEquals(message, e.getMessage());
  }
}
