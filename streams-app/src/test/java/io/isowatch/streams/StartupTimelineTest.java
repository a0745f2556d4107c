package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class StartupTimelineTest {
  private static final Pattern LINE =
      Pattern.compile("beforeStart=(-?\\d+) topology=(\\d+) client=(\\d+) joinAndStores=(\\d+) total=(-?\\d+)");

  @Test
  void shouldListThePhasesInOrderWithATotalFromTheProcessStartWhenMarked() throws Exception {
    // Given
    final StartupTimeline timeline = new StartupTimeline();
    // When
    timeline.mark("topology");
    Thread.sleep(30); // a phase of known length, not a wait for a result
    timeline.mark("client");
    timeline.mark("joinAndStores");
    // Then
    final Matcher m = LINE.matcher(timeline.describe());
    assertTrue(m.matches(), timeline.describe());
    final long before = Long.parseLong(m.group(1));
    final long client = Long.parseLong(m.group(3));
    final long total = Long.parseLong(m.group(5));
    assertTrue(before > 0, "the JVM started before this test: " + before);
    assertTrue(client >= 30, "the 30 ms phase is client's: " + client);
    assertTrue(total >= before + client, "total " + total + " covers the phases");
  }
}
