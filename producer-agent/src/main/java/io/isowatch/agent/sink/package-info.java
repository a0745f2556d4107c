/**
 * Where recorded transactions go. {@link io.isowatch.agent.sink.TransactionSink} is the seam for
 * the Kafka sink to come; {@link io.isowatch.agent.sink.JsonlFileSink} writes the native format.
 */
package io.isowatch.agent.sink;
