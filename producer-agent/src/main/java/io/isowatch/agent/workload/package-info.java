/**
 * The mini-transaction workload generator: keys, key distributions, shapes, plans and unique
 * values (MTC Section V-A1).
 */
package io.isowatch.agent.workload;
