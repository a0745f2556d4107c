package io.isowatch.cli.replay;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileReplayTest {
  private static final History FILE = history("""
      A s1 w(x,1)
      B s2 r(x,1)
      """);

  @Test
  void shouldReplayAFileUnsegmentedWhenNoHorizonIsGiven() {
    // Given: the streaming checker is bounded by default; a replayed file must equal check.
    final Map<String, Object> props = new HashMap<>();
    assertTrue(new IsoWatchStreamsConfig(props).horizon().enabled());

    // When
    FileReplay.likeCheck(props, FILE);

    // Then
    assertFalse(new IsoWatchStreamsConfig(props).horizon().enabled());
    assertTrue(props.containsKey(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG));
  }

  @Test
  void shouldJudgeTimesByTheOtherSessionsOnlyAsCheckDoes() {
    // Given: the records of a replay carry the replay's clock, not the history's
    final Map<String, Object> props = new HashMap<>();

    // When
    FileReplay.likeCheck(props, FILE);

    // Then: no judgement by the records' timestamps, but the future bound stays (docs/streaming.md,
    // "No false positive from time"): a time far ahead of the other sessions is still a finding
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(props);
    assertFalse(config.onlineOptions().futureByArrival());
    assertEquals(IsoWatchStreamsConfig.CHECK_FUTURE_MS_DEFAULT * 1_000L, config.onlineOptions().futureMicros());
  }

  @Test
  void shouldKeepTheCallersHorizonWhenOneIsGiven() {
    // Given
    final Map<String, Object> props = new HashMap<>(Map.of(
        IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "500"));

    // When
    FileReplay.likeCheck(props, FILE);

    // Then
    assertEquals(500L, new IsoWatchStreamsConfig(props).horizon().transactions());
  }
}
