package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The samples bundled for users (repository folder {@code samples/}) stay readable and keep the
 * anomaly their names promise. The lost update is found with a brute-force oracle: two committed
 * transactions that read the same version of a key and both write that key.
 */
class SamplesTest {
  private static final Path SAMPLES = Path.of("..", "samples");

  @ParameterizedTest(name = "{0}")
  @CsvSource(textBlock = """
      lost-update.jsonl,      JSONL, 5, 1
      lost-update.txt,        TEXT,  4, 1
      lost-update.edn,        ELLE,  5, 1
      lost-update-elle.json,  ELLE,  4, 1
      lost-update-aion.json,  AION,  4, 1
      valid-ser.jsonl,        JSONL, 5, 0
      """)
  void shouldReadEverySampleWithTheAnomalyItsNamePromises(
      final String name, final HistoryFormat format, final int txns, final int lostUpdates) throws Exception {
    // Given
    final Path file = SAMPLES.resolve(name);

    // When
    final HistoryFormat detected = HistoryIO.detect(file);
    final History h = HistoryIO.read(file, HistoryFormat.AUTO);

    // Then
    assertEquals(format, detected);
    assertEquals(txns, h.size());
    assertEquals(lostUpdates, lostUpdates(h).size(), () -> "lost updates in " + name + ": " + lostUpdates(h));
  }

  /** Pairs of committed transactions that read the same version of a key and both overwrite it. */
  private static List<String> lostUpdates(final History h) {
    final Map<String, List<Transaction>> readersThatWrite = new HashMap<>();
    for (final Transaction t : h.transactions()) {
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      for (final Op read : t.ops()) {
        final boolean writesSameKey = read.isRead() && t.ops().stream().anyMatch(o -> o.isWrite() && o.key().equals(read.key()));
        if (writesSameKey) {
          readersThatWrite.computeIfAbsent(read.key() + "=" + Objects.toString(read.value()), k -> new ArrayList<>()).add(t);
        }
      }
    }
    final List<String> found = new ArrayList<>();
    readersThatWrite.forEach((version, txns) -> {
      if (txns.size() > 1) {
        found.add(version + " by " + txns.stream().map(Transaction::id).toList());
      }
    });
    return found;
  }
}
