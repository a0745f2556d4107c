package io.isowatch.streams.processor;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Asks Kafka Streams to commit soon after the check processor forwards an output (an anomaly, a
 * retraction, a verdict), so that the output's visibility to read_committed consumers does not
 * wait for the next regular commit ({@code commit.interval.ms}).
 *
 * <p>Why: under exactly-once every commit blocks the stream thread until the broker has
 * acknowledged everything sent since the last one and the transaction's offsets (docs/benchmarks.md,
 * Part 3, run M: 7.6 s of a 3 x 10^5-transaction run, more than the thread's CPU). Inputs that
 * publish nothing need no early commit: they can commit every second, while an output still commits
 * about {@code within} after it is forwarded. A commit is requested at once when the last request
 * is at least {@code within} old, otherwise at the first record processed once it is (or at the
 * regular commit if none comes first): a tenant reporting anomalies at every record cannot make the
 * thread commit at every record. (No punctuator of its own: a wall-clock punctuator would have to be
 * told apart from the verdicts' by the processor tests that fire them by hand.)
 *
 * <p>What is committed, and together, is unchanged: a commit covers every task of the thread, in
 * one Kafka transaction, whenever it happens.
 */
final class OutputCommits {
  private final ProcessorContext<?, ?> context;
  private final long withinMs;
  private long lastRequestMs = Long.MIN_VALUE;
  private boolean pending;

  private OutputCommits(final ProcessorContext<?, ?> context, final long withinMs) {
    this.context = context;
    this.withinMs = withinMs;
  }

  /** Requests commits within {@code within} of each output; negative: never (outputs wait for the regular commit). */
  static OutputCommits of(final ProcessorContext<?, ?> context, final Duration within) {
    return new OutputCommits(context, within.toMillis());
  }

  /**
   * The delay set by {@code check.output.commit.ms} in the app configs, or {@code defaultMs} when
   * absent (a context built by a test).
   */
  static Duration within(final Map<String, Object> appConfigs, final long defaultMs) {
    final Object value = appConfigs.get(io.isowatch.streams.IsoWatchStreamsConfig.CHECK_OUTPUT_COMMIT_MS_CONFIG);
    return Duration.ofMillis(value == null ? defaultMs : Long.parseLong(value.toString()));
  }

  /** An output was forwarded: commit now, or later ({@link #beforeRecord}) if the last request is recent. */
  void forwarded() {
    if (withinMs < 0) {
      return;
    }
    final long now = context.currentSystemTimeMs();
    if (withinMs == 0 || lastRequestMs == Long.MIN_VALUE || now - lastRequestMs >= withinMs) {
      request(now);
    } else {
      pending = true;
    }
  }

  /** Before each record: requests the commit an earlier output is waiting for, once it is due. */
  void beforeRecord() {
    if (pending && context.currentSystemTimeMs() - lastRequestMs >= withinMs) {
      request(context.currentSystemTimeMs());
    }
  }

  private void request(final long now) {
    pending = false;
    lastRequestMs = now;
    context.commit();
  }
}
