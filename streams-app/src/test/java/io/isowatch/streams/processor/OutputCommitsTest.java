package io.isowatch.streams.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.streams.IsoWatchStreamsConfig;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

/** {@link OutputCommits} on a {@link MockProcessorContext}, its wall clock set by hand. */
class OutputCommitsTest {
  private static final long T0 = 1_000_000L;

  private final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();

  @Test
  void shouldRequestACommitAtOnceWhenAnOutputIsForwardedAndNoneWasRequestedRecently() {
    // Given
    final OutputCommits commits = OutputCommits.of(context, Duration.ofMillis(100));
    context.setCurrentSystemTimeMs(T0);
    // When
    commits.beforeRecord();
    final boolean beforeAnyOutput = context.committed();
    commits.forwarded();
    // Then
    assertFalse(beforeAnyOutput);
    assertTrue(context.committed());
  }

  @Test
  void shouldRequestTheCommitOfAnOutputSoonAfterAnotherAtTheFirstRecordOnceDue() {
    // Given: a commit requested for an output at T0
    final OutputCommits commits = OutputCommits.of(context, Duration.ofMillis(100));
    context.setCurrentSystemTimeMs(T0);
    commits.forwarded();
    context.resetCommit();
    // When: another output 10 ms later, then records at 60 ms and at 110 ms
    context.setCurrentSystemTimeMs(T0 + 10);
    commits.forwarded();
    final boolean atOnce = context.committed();
    context.setCurrentSystemTimeMs(T0 + 60);
    commits.beforeRecord();
    final boolean before = context.committed();
    context.setCurrentSystemTimeMs(T0 + 110);
    commits.beforeRecord();
    final boolean due = context.committed();
    context.resetCommit();
    context.setCurrentSystemTimeMs(T0 + 500);
    commits.beforeRecord();
    // Then: not at once, not before 100 ms, then once, and not again without a new output
    assertFalse(atOnce);
    assertFalse(before);
    assertTrue(due);
    assertFalse(context.committed());
  }

  @Test
  void shouldNeverRequestACommitWhenDisabled() {
    // Given
    final OutputCommits commits = OutputCommits.of(context, Duration.ofMillis(-1));
    context.setCurrentSystemTimeMs(T0);
    // When
    commits.forwarded();
    context.setCurrentSystemTimeMs(T0 + 10_000);
    commits.beforeRecord();
    // Then
    assertFalse(context.committed());
  }

  @Test
  void shouldTakeTheDelayFromTheAppConfigsOrTheDefault() {
    assertEquals(Duration.ofMillis(250),
        OutputCommits.within(Map.of(IsoWatchStreamsConfig.CHECK_OUTPUT_COMMIT_MS_CONFIG, "250"), 100));
    assertEquals(Duration.ofMillis(100), OutputCommits.within(Map.of(), 100));
  }
}
