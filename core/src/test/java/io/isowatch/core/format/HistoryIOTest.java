package io.isowatch.core.format;

import static io.isowatch.core.format.Txns.committed;
import static io.isowatch.core.format.Txns.r;
import static io.isowatch.core.format.Txns.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HistoryIOTest {
  @TempDir
  Path dir;

  private Path file(final String name, final String content) throws Exception {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(textBlock = """
      valid.jsonl,            JSONL
      polysi.txt,             TEXT
      isovista.txt,           TEXT
      rw-register.edn,        ELLE
      completions.edn,        ELLE
      rw-register.json,       ELLE
      rw-register-lines.json, ELLE
      aion.json,              AION
      """)
  void shouldDetectTheFormatWhenGivenAFixture(final String name, final HistoryFormat expected) throws Exception {
    assertEquals(expected, HistoryIO.detect(Txns.resource(name)));
  }

  @ParameterizedTest(name = "[{index}] {1}: {0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      `{:type :ok :process 0 :value []}`                                   | ELLE
      `[{:type :ok :process 0 :value []}]`                                 | ELLE
      `#jepsen.history.Op{:type :ok, :process 0, :value []}`               | ELLE
      `;; comment\n\n{:index 0 :type :invoke, :process 0, :value []}`       | ELLE
      `[{"type":"invoke","process":0,"value":[]}]`                          | ELLE
      `{"type":"ok","f":"txn","value":[]}`                                  | ELLE
      `[]`                                                                  | AION
      `[\n  {\n    "cts": {"l": 0, "p": "5"},\n    "tid": 1`                | AION
      `{"txn":"a","session":"s","status":"committed","ops":[]}`            | JSONL
      `\n\n{"ops":[],"session":"s"}`                                        | JSONL
      `# header comment\nw(1,1,0,0)\n`                                     | TEXT
      ``                                                                    | JSONL
      `\n \n`                                                               | JSONL
      """)
  void shouldDetectTheFormatWhenGivenTheFirstBytes(final String content, final HistoryFormat expected) throws Exception {
    // Given
    final Path p = file("h", content.replace("\\n", "\n"));

    // When
    final HistoryFormat detected = HistoryIO.detect(p);

    // Then
    assertEquals(expected, detected);
  }

  @Test
  void shouldExplainWhenNoFormatMatches() throws Exception {
    // Given
    final Path p = file("notes.txt", "\nhello world\nr(1,2,3,4)\n");

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> HistoryIO.read(p, HistoryFormat.AUTO));

    // Then
    assertEquals(0, e.line());
    assertTrue(e.getMessage().startsWith("cannot detect the history format of " + p + " from its first line 'hello world': "
        + "expected JSONL"), e.getMessage());
  }

  @Test
  void shouldReadGzipTransparentlyWhenTheFileIsCompressed() throws Exception {
    // Given
    final Path gz = dir.resolve("history.jsonl.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(Txns.resource("valid.jsonl")));
    }

    // When
    final HistoryFormat detected = HistoryIO.detect(gz);
    final History h = HistoryIO.read(gz, HistoryFormat.AUTO);

    // Then
    assertEquals(HistoryFormat.JSONL, detected);
    assertEquals(HistoryIO.read(Txns.resource("valid.jsonl"), HistoryFormat.JSONL), h);
  }

  @Test
  void shouldSkipTheByteOrderMarkWhenAFileStartsWithOne() throws Exception {
    // Given
    final Path p = file("bom.txt", "\uFEFFr(1,0,1,1)\n");

    // When
    final History h = HistoryIO.read(p, HistoryFormat.AUTO);

    // Then
    assertEquals(List.of(committed("1", "1", 1, r("1", 0L))), h.transactions());
  }

  @Test
  void shouldDetectFromAStreamWhenReadingStandardInput() throws Exception {
    // Given
    final byte[] bytes = "w(3,1,0,5)\nr(3,1,1,6)\n".getBytes(StandardCharsets.UTF_8);

    // When
    final History h = HistoryIO.read(new ByteArrayInputStream(bytes), HistoryFormat.AUTO);

    // Then
    assertEquals(List.of(committed("5", "0", 1, w("3", 1)), committed("6", "1", 2, r("3", 1L))), h.transactions());
  }

  @Test
  void shouldApplyTheNamedReaderWhenTheFormatIsExplicit() throws Exception {
    // Given
    final Path p = Txns.resource("rw-register.json");

    // When
    final InvalidHistoryException e =
        assertThrows(InvalidHistoryException.class, () -> HistoryIO.read(p, HistoryFormat.TEXT));

    // Then
    assertEquals(1, e.line());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(textBlock = """
      valid.jsonl
      polysi.txt
      isovista.txt
      rw-register.edn
      rw-register.json
      rw-register-lines.json
      completions.edn
      aion.json
      """)
  void shouldKeepTheHistoryWhenConvertedToJsonl(final String name) throws Exception {
    // Given
    final History original = HistoryIO.read(Txns.resource(name), HistoryFormat.AUTO);
    final StringWriter jsonl = new StringWriter();

    // When
    HistoryIO.write(original, HistoryFormat.JSONL, jsonl);
    final History converted = new JsonlHistoryReader().read(new StringReader(jsonl.toString()));

    // Then
    assertTrue(original.size() > 0);
    assertEquals(Txns.withoutLines(original), Txns.withoutLines(converted));
  }

  @Test
  void shouldRefuseToWriteWhenTheFormatIsReadOnly() {
    // When
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HistoryIO.write(new History(List.of()), HistoryFormat.ELLE, new StringWriter()));

    // Then
    assertEquals("cannot write ELLE histories; writable formats are JSONL and TEXT", e.getMessage());
  }
}
