package io.isowatch.agent.sink;

/**
 * Counts of one sink.
 *
 * @param sink what it writes to
 * @param accepted transactions handed to it
 * @param written transactions it has durably handed on (written to its file, acknowledged by the
 *     broker, stored)
 * @param producerWaits times a session had to wait because the sink was full
 * @param producerWaitMicros total time sessions waited
 * @param failed transactions the sink could not hand on (each one fails the run)
 * @param writtenAs how the summary names {@code written}: "written", "acknowledged"
 */
public record SinkStats(String sink, long accepted, long written, long producerWaits, long producerWaitMicros,
    long failed, String writtenAs) {
  /** Counts of a sink that writes (a file, memory) and reports failures by throwing. */
  public SinkStats(final String sink, final long accepted, final long written, final long producerWaits,
      final long producerWaitMicros) {
    this(sink, accepted, written, producerWaits, producerWaitMicros, 0, "written");
  }
}
