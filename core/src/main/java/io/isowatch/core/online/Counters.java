package io.isowatch.core.online;

/**
 * The counts of one state that the stats report (docs/streaming-design.md): transactions taken,
 * committed, aborted, promoted from indeterminate, operations, the two transaction shapes, retries
 * ignored, late arrivals, and whether SSER lacked a time. Only ever grow; a cut's replay must not
 * count again, so the replaced state's counts are {@link #restore restored} after it.
 */
final class Counters {
  private long input;
  private long committed;
  private long aborted;
  private long promoted;
  private long operations;
  private long longRmw;
  private long largeReadOnly;
  private long duplicates;
  private long late;
  private boolean missingTimes;

  void countInput() {
    input++;
  }

  void countCommitted() {
    committed++;
  }

  void countAborted() {
    aborted++;
  }

  void countPromoted() {
    promoted++;
  }

  void countOperations(final int n) {
    operations += n;
  }

  void countLongReadModifyWrite() {
    longRmw++;
  }

  void countLargeReadOnly() {
    largeReadOnly++;
  }

  void countDuplicate() {
    duplicates++;
  }

  void countLate() {
    late++;
  }

  void markMissingTimes() {
    missingTimes = true;
  }

  long input() {
    return input;
  }

  long committed() {
    return committed;
  }

  long aborted() {
    return aborted;
  }

  long promoted() {
    return promoted;
  }

  long operations() {
    return operations;
  }

  long longRmw() {
    return longRmw;
  }

  long largeReadOnly() {
    return largeReadOnly;
  }

  long duplicates() {
    return duplicates;
  }

  long late() {
    return late;
  }

  boolean missingTimes() {
    return missingTimes;
  }

  /** Sets every count to the carried one's (the end of a cut's replay, or of a restore). */
  void restore(final CarriedCounters c) {
    input = c.input();
    committed = c.committed();
    aborted = c.aborted();
    promoted = c.promoted();
    operations = c.operations();
    longRmw = c.longRmw();
    largeReadOnly = c.largeReadOnly();
    duplicates = c.duplicates();
    late = c.late();
    missingTimes = c.missingTimes();
  }
}
