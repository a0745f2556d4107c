package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Appends and list reads in the native JSONL format, Elle EDN and Jepsen JSON, and what the text format says about them. */
class ListAppendFormatsTest {
  private static final String JSONL =
      "{\"session\":\"s1\",\"txn\":\"t1\",\"status\":\"committed\",\"ops\":[{\"t\":\"a\",\"k\":\"x\",\"v\":1},"
      + "{\"t\":\"r\",\"k\":\"x\",\"v\":[1]}]}\n"
      + "{\"session\":\"s2\",\"txn\":\"t2\",\"status\":\"committed\",\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":[]},"
      + "{\"t\":\"r\",\"k\":\"y\",\"v\":null}]}\n";

  @Test
  void shouldReadAppendsAndListReadsFromJsonl() throws Exception {
    // When
    final History h = new JsonlHistoryReader().read(new StringReader(JSONL));
    // Then
    assertEquals(List.of(Op.append("x", 1), Op.readList("x", List.of(1L))), h.transactions().get(0).ops());
    assertEquals(List.of(Op.readList("x", List.of()), Op.read("y", null)), h.transactions().get(1).ops());
    assertEquals("[a(x,1), r(x,[1])]", h.transactions().get(0).ops().toString());
  }

  @Test
  void shouldReadTheSameWithoutTheFastPath() throws Exception {
    // Given: a line the scanner takes (an append) and one it hands over (a list)
    final String line = "{\"session\":\"s1\",\"txn\":\"t1\",\"status\":\"committed\",\"ops\":[{\"t\":\"a\",\"k\":\"x\",\"v\":7}]}";
    // When
    final Transaction t = new JsonlHistoryReader().parseLine(line, 1);
    // Then
    assertEquals(List.of(Op.append("x", 7)), t.ops());
  }

  @Test
  void shouldWriteJsonlThatReadsBackTheSame() throws Exception {
    // Given
    final History h = new JsonlHistoryReader().read(new StringReader(JSONL));
    // When
    final StringWriter out = new StringWriter();
    HistoryIO.write(h, HistoryFormat.JSONL, out);
    // Then
    assertTrue(out.toString().contains("{\"t\":\"r\",\"k\":\"x\",\"v\":[1]}"), out.toString());
    assertEquals(Txns.withoutLines(h), Txns.withoutLines(new JsonlHistoryReader().read(new StringReader(out.toString()))));
  }

  @Test
  void shouldRefuseAListForAnAppend() {
    // Given
    final String line = "{\"session\":\"s1\",\"txn\":\"t1\",\"status\":\"committed\",\"ops\":[{\"t\":\"a\",\"k\":\"x\",\"v\":[1]}]}\n";
    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class,
        () -> new JsonlHistoryReader().read(new StringReader(line)));
    // Then
    assertEquals(1, e.line());
    assertTrue(e.getMessage().contains("only a read returns a list"), e.getMessage());
  }

  @Test
  void shouldBoundTheLengthOfAListRead() {
    // Given: a limit of 3 elements
    final InputLimits limits = new InputLimits(256, 1 << 20, 1 << 20, 1000, 100, 3);
    final String line = "{\"session\":\"s1\",\"txn\":\"t1\",\"status\":\"committed\",\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":[1,2,3,4]}]}\n";
    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class,
        () -> new JsonlHistoryReader(limits).read(new StringReader(line)));
    // Then
    assertTrue(e.getMessage().contains("max-list-elements=3"), e.getMessage());
  }

  @Test
  void shouldReadElleListAppendEdn() throws Exception {
    // Given: Elle's list-append workload, an invoke with nil reads and its completion with lists
    final String edn = """
        {:type :invoke, :f :txn, :value [[:append :x 1] [:r :x nil] [:r :y nil]], :process 0, :time 1000, :index 0}
        {:type :ok, :f :txn, :value [[:append :x 1] [:r :x [1]] [:r :y nil]], :process 0, :time 2000, :index 1}
        {:type :invoke, :f :txn, :value [[:append :y 2]], :process 1, :time 3000, :index 2}
        {:type :fail, :f :txn, :value [[:append :y 2]], :process 1, :time 4000, :index 3}
        """;
    // When
    final History h = new ElleHistoryReader().read(new StringReader(edn));
    // Then
    assertEquals(List.of(Op.append("x", 1), Op.readList("x", List.of(1L)), Op.read("y", null)),
        h.transactions().get(0).ops());
    assertEquals(TxnStatus.ABORTED, h.transactions().get(1).status());
    assertEquals(List.of(Op.append("y", 2)), h.transactions().get(1).ops());
  }

  @Test
  void shouldReadJepsenJsonWithAppends() throws Exception {
    // Given
    final String json = "[{\"type\":\"invoke\",\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"r\",\"x\",null]],"
        + "\"process\":0,\"index\":0},"
        + "{\"type\":\"ok\",\"f\":\"txn\",\"value\":[[\"append\",\"x\",1],[\"r\",\"x\",[1]]],\"process\":0,\"index\":1}]";
    // When
    final History h = HistoryIO.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), HistoryFormat.AUTO);
    // Then
    assertEquals(List.of(Op.append("x", 1), Op.readList("x", List.of(1L))), h.transactions().get(0).ops());
  }

  @Test
  void shouldRefuseANonIntegerElement() {
    // Given
    final String edn = "{:type :ok, :f :txn, :value [[:r :x [1 :two]]], :process 0, :index 1}\n";
    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class,
        () -> new ElleHistoryReader().read(new StringReader(edn)));
    // Then
    assertTrue(e.getMessage().contains("elements must be 64-bit integers"), e.getMessage());
  }

  @Test
  void shouldSayTheTextFormatCannotHoldAppends() throws Exception {
    // Given
    final History h = new JsonlHistoryReader().read(new StringReader(JSONL));
    // When
    final UnwritableHistoryException e = assertThrows(UnwritableHistoryException.class,
        () -> HistoryIO.write(h, HistoryFormat.TEXT, new StringWriter()));
    // Then
    assertTrue(e.getMessage().contains("list-append operation"), e.getMessage());
  }

  @Test
  void shouldSniffAJsonlListAppendHistory() throws Exception {
    // When
    final History h = HistoryIO.read(new ByteArrayInputStream(JSONL.getBytes(StandardCharsets.UTF_8)), HistoryFormat.AUTO);
    // Then
    assertEquals(2, h.size());
  }

  @Test
  void shouldFindTheLostUpdateOfTheListAppendSamplesInBothFormats() throws Exception {
    for (final String name : List.of("list-append.jsonl", "list-append.edn")) {
      // Given
      final java.nio.file.Path file = java.nio.file.Path.of("..", "samples", name);
      // When
      final History h = HistoryIO.read(file, HistoryFormat.AUTO);
      final io.isowatch.core.check.CheckResult r =
          io.isowatch.core.online.WholeHistoryCheck.check(h, io.isowatch.core.check.CheckOptions.defaults());
      // Then
      assertEquals(4, h.size(), name);
      assertEquals(List.of("LostUpdate"), r.anomalies().stream().map(a -> a.displayName()).toList(), name);
      assertEquals(java.util.Set.of(io.isowatch.core.check.Verdict.VIOLATED), java.util.Set.copyOf(r.verdicts().values()), name);
    }
  }
}
