package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSONL target: 10^6 lines parsed in a few seconds. Opt-in (tag {@code benchmark}): run with
 * {@code mvn test -pl core -Dsurefire.excludedGroups= -Dgroups=benchmark}.
 */
@Tag("benchmark")
class JsonlReadBenchmarkTest {
  private static final Logger LOG = LoggerFactory.getLogger(JsonlReadBenchmarkTest.class);
  private static final int TXNS = 1_000_000;
  private static final int KEYS = 1_000;
  private static final int SESSIONS = 50;
  private static final long BUDGET_MILLIS = 10_000;

  @TempDir
  Path dir;

  @Test
  void shouldReadAMillionLinesWithinTheBudgetWhenTheFileIsLarge() throws Exception {
    // Given
    final Path file = dir.resolve("million.jsonl");
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        JsonlHistoryWriter writer = new JsonlHistoryWriter(out)) {
      for (int i = 0; i < TXNS; i++) {
        final String key = "key-" + (i % KEYS);
        final long start = 1_732_180_000_000_000L + i * 10L;
        writer.write(new Transaction("t" + i, "s" + (i % SESSIONS), i / SESSIONS, TxnStatus.COMMITTED, start,
            start + 7, List.of(Op.read(key, (long) i - KEYS), Op.write(key, i)), null, null, 0));
      }
    }

    // When
    final long t0 = System.nanoTime();
    final History h = HistoryIO.read(file, HistoryFormat.AUTO);
    final long millis = (System.nanoTime() - t0) / 1_000_000;

    // Then
    LOG.info("Read JSONL lines=[{}] bytes=[{}] millis=[{}]", TXNS, Files.size(file), millis);
    assertEquals(TXNS, h.size());
    assertEquals(TXNS, h.transactions().get(TXNS - 1).line());
    assertSame(h.transactions().get(0).ops().get(0).key(), h.transactions().get(KEYS).ops().get(0).key());
    assertTrue(millis < BUDGET_MILLIS, "took " + millis + " ms");
  }
}
