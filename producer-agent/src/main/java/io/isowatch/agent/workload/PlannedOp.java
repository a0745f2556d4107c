package io.isowatch.agent.workload;

import java.util.List;

/**
 * One operation a transaction plan asks a target to run. What the client then records is what
 * the target answered, not the plan (see {@code TransactionRunner}).
 */
public sealed interface PlannedOp permits PlannedOp.Read, PlannedOp.Write, PlannedOp.Cas, PlannedOp.ReadAll,
    PlannedOp.ReadList, PlannedOp.Append {

  /** {@code SELECT v FROM kv WHERE k = ?}. */
  record Read(String key) implements PlannedOp {}

  /** {@code UPDATE kv SET v = ? WHERE k = ?}; the value is unique per key (see {@link ValueEncoder}). */
  record Write(String key, long value) implements PlannedOp {}

  /**
   * A lightweight transaction: {@code UPDATE kv SET v = value WHERE k = ? AND v = expected}. On
   * success the client has observed {@code v = expected} and written {@code value}; on failure it
   * has only learnt {@code v ≠ expected}, so the runner reads the key to record a value it saw.
   */
  record Cas(String key, long expected, long value) implements PlannedOp {}

  /** A read of every key in one statement (snapshot transactions). */
  record ReadAll(List<String> keys) implements PlannedOp {
    public ReadAll {
      keys = List.copyOf(keys);
    }
  }

  /** List-append workload: a read of the whole list of {@code key} ({@code SELECT v FROM kv WHERE k = ?}). */
  record ReadList(String key) implements PlannedOp {}

  /**
   * List-append workload: appends {@code element} to the list of {@code key}, in the database
   * ({@code UPDATE kv SET v = CONCAT(v, ?) WHERE k = ?}), without reading it: a blind append. The
   * element is unique per key (see {@link ValueEncoder}).
   */
  record Append(String key, long element) implements PlannedOp {}
}
