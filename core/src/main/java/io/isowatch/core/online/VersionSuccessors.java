package io.isowatch.core.online;

/**
 * Store {@code version-successors}: version → the counted transactions that read it and then
 * wrote its key (read-modify-write successors). One successor gives WW(writer → successor); a
 * second makes a divergence, a lost update (MTC Definition 10).
 */
final class VersionSuccessors {
  private final IntMultimap lists;

  VersionSuccessors(final int expected) {
    lists = new IntMultimap(expected);
  }

  void add(final int version, final int slot) {
    lists.add(version, slot);
  }

  int first(final int version) {
    return lists.first(version);
  }

  int next(final int entry) {
    return lists.next(entry);
  }

  int slot(final int entry) {
    return lists.value(entry);
  }

  boolean contains(final int version, final int slot) {
    return lists.contains(version, slot);
  }
}
