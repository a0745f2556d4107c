/**
 * List-append histories (Elle's list-append workload): the version order of each key read off
 * the lists ({@link io.isowatch.core.listappend.ListOrders}), the anomalies only lists show
 * ({@link io.isowatch.core.listappend.ListAnomalies}), and the translation into a register history
 * whose every write reads the version it replaces ({@link io.isowatch.core.listappend.RegisterTranslation}),
 * so that the same engine decides the levels ({@link io.isowatch.core.listappend.ListAppendCheck};
 * docs/list-append.md).
 */
package io.isowatch.core.listappend;
