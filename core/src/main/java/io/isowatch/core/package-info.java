/**
 * The IsoWatch checker core: history model, formats, dependency graphs, cycle search, anomaly
 * classification and explanation.
 *
 * <p>This package and its sub-packages must not depend on Kafka (enforced by {@code
 * CoreIsKafkaFreeTest}): the offline CLI and the Streams topology both call into it, and processors
 * only adapt records to it.
 *
 * <p>There is one engine, {@code io.isowatch.core.online}: {@code isowatch check}, {@code bench} and
 * the agent's end-of-run summary run it on a whole history ({@code WholeHistoryCheck}), the
 * topology as a stream ({@code OnlineChecker}). "The batch checker" is {@code
 * io.isowatch.core.check.Checker} in test scope, an independent whole-history implementation kept
 * as the engine's differential oracle (with the brute-force oracle and the golden corpus); the
 * sentences of findings and UNKNOWN reasons both produce come from one place ({@code
 * FindingMessages}, {@code UnknownReasons}).
 */
package io.isowatch.core;
