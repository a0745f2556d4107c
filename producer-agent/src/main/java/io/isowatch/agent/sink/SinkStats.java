package io.isowatch.agent.sink;

/**
 * Counts of one sink.
 *
 * @param sink what it writes to
 * @param accepted transactions handed to it
 * @param written transactions it has durably handed on (written to its file, sent, stored)
 * @param producerWaits times a session had to wait because the sink's queue was full
 * @param producerWaitMicros total time sessions waited
 */
public record SinkStats(String sink, long accepted, long written, long producerWaits, long producerWaitMicros) {}
