package io.isowatch.streams.replay;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.schemas.TransactionEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryPublisherTest {
  @Test
  void shouldNumberSessionsInFileOrderWhenTheHistoryGivesNoSeq() {
    // Given: s1 and s2 without seqs, s3 with its own.
    final List<TransactionEvent> events = HistoryPublisher.events(history("""
        A s1 r(x,0)
        B s2 r(x,0)
        C s1 r(y,0)
        D s3 r(z,0) seq=4
        E s3 r(z,0) seq=5
        """), "acme");
    // When / Then
    assertEquals(List.of("A", "B", "C", "D", "E"), events.stream().map(TransactionEvent::getTxn).toList());
    assertEquals(List.of(0L, 0L, 1L, 4L, 5L), events.stream().map(TransactionEvent::getSeq).toList());
    assertEquals(List.of("acme"), events.stream().map(TransactionEvent::getTenant).distinct().toList());
  }
}
