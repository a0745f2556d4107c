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

  @Test
  void shouldReleaseWhileArrivingWithTheGraceUnderWhichNoTransactionOfTheFileIsLate() {
    // Given: a file whose second transaction ends 1,500 µs before the first (4 s span)
    final History file = history("""
        A s1 w(x,1) @0..2000
        B s2 r(x,1) @100..500
        C s1 w(y,2) @3000000..4000000
        """);
    final Map<String, Object> props = new HashMap<>();

    // When
    FileReplay.likeCheck(props, file);

    // Then: a grace of 2 ms (1,500 µs rounded up) orders the arrivals; no read is proved unwritten
    // before the end (the absence bound covers the file's span of end times, as before)
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(props);
    assertEquals(2_000L, config.onlineOptions().graceMicros());
    assertEquals(4_000_000L, config.onlineOptions().absenceMicros());
  }

  @Test
  void shouldHoldEveryTransactionToTheEndWhenAValueIsWrittenTwice() {
    // Given: x=1 written twice (a stream attributes a read while its value is unique)
    final History file = history("""
        A s1 w(x,1) @0..2000
        B s2 w(x,1) @3000000..4000000
        """);
    final Map<String, Object> props = new HashMap<>();

    // When
    FileReplay.likeCheck(props, file);

    // Then: the grace covers the file's span, as it did for every file
    assertEquals(3_999_000L, new IsoWatchStreamsConfig(props).onlineOptions().graceMicros());
  }

  @Test
  void shouldKeepTheCallersGraceAndLetTheAbsenceBoundFollowIt() {
    // Given
    final Map<String, Object> props = new HashMap<>(Map.of(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "7"));

    // When
    FileReplay.likeCheck(props, FILE);

    // Then
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(props);
    assertEquals(7_000L, config.onlineOptions().graceMicros());
    assertEquals(7_000L, config.onlineOptions().absenceMicros());
  }
}
