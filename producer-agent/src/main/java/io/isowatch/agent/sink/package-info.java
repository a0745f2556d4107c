/**
 * Where recorded transactions go. {@link io.isowatch.agent.sink.JsonlFileSink} writes the native
 * JSONL format, {@link io.isowatch.agent.sink.KafkaTransactionSink} publishes to the streaming
 * checker's input topic, {@link io.isowatch.agent.sink.TeeSink} does both.
 */
package io.isowatch.agent.sink;
