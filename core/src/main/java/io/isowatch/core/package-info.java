/**
 * The IsoWatch checker core: history model, formats, dependency graphs, cycle search, anomaly
 * classification and explanation.
 *
 * <p>This package and its sub-packages must not depend on Kafka (enforced by {@code
 * CoreIsKafkaFreeTest}): the offline CLI and the Streams topology both call into it, and processors
 * only adapt records to it.
 */
package io.isowatch.core;
