package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.NO_TIME;
import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonlHistoryReaderTest {
  private static final String GOOD = "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[]}";

  @Test
  void shouldReadEveryFieldWhenTheFileIsValid() throws Exception {
    // When
    final History h = Txns.read("valid.jsonl", new JsonlHistoryReader()::read);

    // Then
    assertEquals(List.of(
        new Transaction("s1-0", "s1", 0, TxnStatus.COMMITTED, 1732180000000123L, 1732180000000456L,
            List.of(r("x", 0L), w("x", 1017)), null, null, 1),
        new Transaction("s2-0", "s2", Transaction.NO_SEQ, TxnStatus.ABORTED, NO_TIME, NO_TIME,
            List.of(r("x", 1017L), w("x", -5)), null, null, 3),
        new Transaction("s1-1", "s1", 1, TxnStatus.UNKNOWN, NO_TIME, NO_TIME,
            List.of(r("y", null), r("x", null), w("y", Long.MAX_VALUE)), "acme", "SERIALIZABLE", 4),
        new Transaction("s2-1", "s2", Transaction.NO_SEQ, TxnStatus.COMMITTED, NO_TIME, NO_TIME,
            List.of(), null, null, 6)),
        h.transactions());
  }

  @Test
  void shouldShareOneStringInstanceWhenKeysAndSessionsRepeat() throws Exception {
    // Given
    final String text = "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"key\",\"v\":1}]}\n"
        + "{\"session\":\"s1\",\"txn\":\"b\",\"status\":\"committed\",\"ops\":[{\"t\":\"r\",\"k\":\"key\",\"v\":1}]}\n";

    // When
    final History h = new JsonlHistoryReader().read(new StringReader(text));

    // Then
    final Transaction a = h.transactions().get(0);
    final Transaction b = h.transactions().get(1);
    assertSame(a.ops().get(0).key(), b.ops().get(0).key());
    assertSame(a.session(), b.session());
  }

  @Test
  void shouldParseOneLineWhenGivenAlone() throws Exception {
    // Given
    final String line = "{\"session\":\"s9\",\"txn\":\"s9-1\",\"status\":\"unknown\",\"end\":7,"
        + "\"ops\":[{\"t\":\"w\",\"k\":\"z\",\"v\":-3}]}";

    // When
    final Transaction t = new JsonlHistoryReader().parseLine(line, 42);

    // Then
    assertEquals(new Transaction("s9-1", "s9", Transaction.NO_SEQ, TxnStatus.UNKNOWN, NO_TIME, 7L,
        List.of(w("z", -3)), null, null, 42), t);
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      {"session":"s1","txn":"a","status":"done","ops":[]}                         | 2 | line 2: field 'status' must be committed, aborted or unknown, got 'done'
      {"session":"s1","txn":"a","status":"ok","ops":[]}                           | 2 | line 2: field 'status' must be committed, aborted or unknown, got 'ok'
      {"session":"s1","txn":"a","status":1,"ops":[]}                              | 2 | line 2: field 'status' must be committed, aborted or unknown, got 1
      {"txn":"a","status":"committed","ops":[]}                                   | 2 | line 2: missing field 'session'
      {"session":"s1","status":"committed","ops":[]}                              | 2 | line 2: missing field 'txn'
      {"session":"s1","txn":"a","ops":[]}                                         | 2 | line 2: missing field 'status'
      {"session":"s1","txn":"a","status":"committed"}                             | 2 | line 2: missing field 'ops'
      {"session":7,"txn":"a","status":"committed","ops":[]}                       | 2 | line 2: field 'session' must be a string, got 7
      {"session":"s1","txn":["a"],"status":"committed","ops":[]}                  | 2 | line 2: field 'txn' must be a string, got an array
      {"session":"s1","txn":"a","status":"committed","ops":{}}                    | 2 | line 2: field 'ops' must be an array, got an object
      {"session":"s1","txn":"a","status":"committed","ops":[5]}                   | 2 | line 2: ops[0] must be an object like {"t":"r","k":"x","v":1}, got 5
      {"session":"s1","txn":"a","status":"committed","ops":[{"k":"x","v":1}]}     | 2 | line 2: ops[0]: missing field 't'
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"r","v":1}]}     | 2 | line 2: ops[0]: missing field 'k'
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"x","k":"x"}]}   | 2 | line 2: field 'ops[0].t' must be r, w or a, got 'x'
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"r","k":1}]}     | 2 | line 2: field 'ops[0].k' must be a string, got 1
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"r","k":"x","v":0},{"t":"w","k":"x","v":null}]} | 2 | line 2: ops[1]: a write needs an integer 'v' (null is only valid for a read of an absent key)
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"w","k":"x"}]}   | 2 | line 2: ops[0]: a write needs an integer 'v' (null is only valid for a read of an absent key)
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"r","k":"x","v":1.5}]} | 2 | line 2: field 'ops[0].v' must be a 64-bit integer, a list of them, or null, got 1.5
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"r","k":"x","v":"1"}]} | 2 | line 2: field 'ops[0].v' must be a 64-bit integer, a list of them, or null, got '1'
      {"session":"s1","txn":"a","status":"committed","ops":[{"t":"r","k":"x","v":9223372036854775808}]} | 2 | line 2: field 'ops[0].v' is outside the 64-bit range: 9223372036854775808
      {"session":"s1","txn":"a","status":"committed","start":"5","ops":[]}       | 2 | line 2: field 'start' must be an integer (microseconds since the epoch), got '5'
      {"session":"s1","txn":"a","status":"committed","end":1.0,"ops":[]}         | 2 | line 2: field 'end' must be an integer (microseconds since the epoch), got 1.0
      {"session":"s1","txn":"a","status":"committed","seq":-1,"ops":[]}          | 2 | line 2: field 'seq' must be an integer >= 0, got -1
      {"session":"s1","txn":"a","status":"committed","tenant":3,"ops":[]}        | 2 | line 2: field 'tenant' must be a string, got 3
      [1,2,3]                                                                     | 2 | line 2: expected a JSON object (one transaction per line)
      {"session":"s1","txn":"b","status":"committed","ops":[]} {"x":1}            | 2 | line 2: unexpected content after the transaction object
      {"session":"s1","txn":"a","status":"committed","ops":[]}                    | 2 | line 2: duplicate transaction id 'a' (first used at line 1)
      """)
  void shouldNameTheLineWhenALineIsInvalid(final String badLine, final int line, final String message) {
    // Given
    final String text = GOOD + "\n" + badLine + "\n" + GOOD.replace("\"a\"", "\"z\"") + "\n";

    // When
    final InvalidHistoryException e =
        assertThrows(InvalidHistoryException.class, () -> new JsonlHistoryReader().read(new StringReader(text)));

    // Then
    assertEquals(line, e.line());
    assertEquals(message, e.getMessage());
  }

  @Test
  void shouldReportMalformedJsonWithItsLineWhenALineIsCut() {
    // Given
    final String text = "\n\n" + GOOD.substring(0, 30) + "\n";

    // When
    final InvalidHistoryException e =
        assertThrows(InvalidHistoryException.class, () -> new JsonlHistoryReader().read(new StringReader(text)));

    // Then
    assertEquals(3, e.line());
    assertEquals(true, e.getMessage().startsWith("line 3: malformed JSON: "), e.getMessage());
  }

  @Test
  void shouldReadAnEmptyHistoryWhenTheInputIsBlank() throws Exception {
    // Given
    final String text = "\n   \n\t\n";

    // When
    final History h = new JsonlHistoryReader().read(new StringReader(text));

    // Then
    assertEquals(0, h.size());
  }
}
