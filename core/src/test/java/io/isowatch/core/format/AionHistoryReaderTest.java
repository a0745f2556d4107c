package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.NO_TIME;
import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.txn;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.history.TxnStatus;
import java.io.StringReader;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AionHistoryReaderTest {

  @Test
  void shouldTakeThePhysicalClockPartsAsMicrosWhenReadingTimeKillerJson() throws Exception {
    // When
    final History h = Txns.read("aion.json", new AionHistoryReader()::read);

    // Then
    assertEquals(List.of(
        txn("50", "32", TxnStatus.COMMITTED, 320316484L, 320316486L, 2, r("313", 0L), w("313", 594)),
        txn("t-52", "east", TxnStatus.COMMITTED, 1691420095436341L, 1691420095659914L, 12,
            r("313", 594L), w("44", 1000), r("45", null))),
        h.transactions());
  }

  @Test
  void shouldConvertThePhysicalUnitWhenOneIsGiven() throws Exception {
    // Given
    final String json = "[{\"tid\":1,\"sid\":1,\"sts\":{\"p\":1500,\"l\":9},\"cts\":{\"p\":2001,\"l\":0},\"ops\":[]}]";

    // When
    final History millis = new AionHistoryReader(TimeUnit.MILLISECONDS).read(new StringReader(json));
    final History nanos = new AionHistoryReader(TimeUnit.NANOSECONDS).read(new StringReader(json));

    // Then
    assertEquals(List.of(txn("1", "1", TxnStatus.COMMITTED, 1_500_000L, 2_001_000L, 1)), millis.transactions());
    assertEquals(List.of(txn("1", "1", TxnStatus.COMMITTED, 1L, 3L, 1)), nanos.transactions());
  }

  @Test
  void shouldLeaveTimesUnknownWhenClocksAreMissing() throws Exception {
    // Given
    final String json = "[{\"tid\":\"a\",\"sid\":\"s\",\"ops\":[{\"t\":\"w\",\"k\":\"7\",\"v\":\"8\"}]}]";

    // When
    final History h = new AionHistoryReader().read(new StringReader(json));

    // Then
    assertEquals(List.of(txn("a", "s", TxnStatus.COMMITTED, NO_TIME, NO_TIME, 1, w("7", 8))), h.transactions());
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      {"tid":1,"sid":1,"ops":[]}                                       | 1 | line 1: expected a JSON array of transactions like [{"tid":1,"sid":1,...}]
      [{"sid":1,"ops":[]}]                                             | 1 | line 1: missing field 'tid'
      [{"tid":1,"ops":[]}]                                             | 1 | line 1: missing field 'sid'
      [{"tid":1,"sid":1}]                                              | 1 | line 1: missing field 'ops'
      [{"tid":[1],"sid":1,"ops":[]}]                                   | 1 | line 1: field 'tid' must be an integer or a string
      [7]                                                              | 1 | line 1: expected a transaction object like {"tid":1,"sid":1,"sts":...,"cts":...,"ops":[...]}
      [{"tid":1,"sid":1,"sts":5,"ops":[]}]                             | 1 | line 1: field 'sts' must be a clock like {"p":1691420095436341,"l":0}
      [{"tid":1,"sid":1,"sts":{"l":1},"ops":[]}]                       | 1 | line 1: field 'sts' has no physical part 'p'
      [{"tid":1,"sid":1,"cts":{"p":"soon"},"ops":[]}]                  | 1 | line 1: field 'cts.p' must be a 64-bit integer, got 'soon'
      [{"tid":1,"sid":1,"ops":[{"t":"x","k":1,"v":1}]}]                | 1 | line 1: field 'ops[0].t' must be r, w, read or write, got x
      [{"tid":1,"sid":1,"ops":[{"t":"r","v":1}]}]                      | 1 | line 1: ops[0]: missing field 'k'
      [{"tid":1,"sid":1,"ops":[{"t":"r","k":1.5,"v":1}]}]              | 1 | line 1: field 'ops[0].k' must be a 64-bit integer, got 1.5
      [{"tid":1,"sid":1,"ops":[{"t":"w","k":1}]}]                      | 1 | line 1: ops[0]: a write needs an integer 'v'
      [{"tid":1,"sid":1,"ops":[]},{"tid":1,"sid":2,"ops":[]}]          | 1 | line 1: duplicate transaction id '1' (first used at line 1)
      [{"tid":1,"sid":1,"ops":[]}] []                                  | 1 | line 1: unexpected content after the JSON array
      """)
  void shouldNameTheLineWhenATransactionIsInvalid(final String json, final int line, final String message) {
    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class,
        () -> new AionHistoryReader().read(new StringReader(json)));

    // Then
    assertEquals(line, e.line());
    assertEquals(message, e.getMessage());
  }

  @Test
  void shouldNameTheLineOfTheTransactionWhenItIsOnALaterLine() {
    // Given
    final String json = "[\n {\"tid\":1,\"sid\":1,\"ops\":[]},\n\n {\"tid\":2,\"sid\":1,\"ops\":[{\"t\":\"q\"}]}\n]";

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class,
        () -> new AionHistoryReader().read(new StringReader(json)));

    // Then
    assertEquals("line 4: field 'ops[0].t' must be r, w, read or write, got q", e.getMessage());
  }
}
