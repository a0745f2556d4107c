package io.isowatch.core.online;

/**
 * Version → a list of transaction slots: the shape of the stores {@link VersionReaders} and {@link
 * VersionSuccessors}, which differ only in what the slots mean. Entries are walked with {@link
 * #first} and {@link #next}, in the order they were added.
 */
abstract class VersionSlots {
  private final IntMultimap lists;

  VersionSlots(final int expected) {
    lists = new IntMultimap(expected);
  }

  final void add(final int version, final int slot) {
    lists.add(version, slot);
  }

  final int first(final int version) {
    return lists.first(version);
  }

  final int next(final int entry) {
    return lists.next(entry);
  }

  final int slot(final int entry) {
    return lists.value(entry);
  }

  final boolean contains(final int version, final int slot) {
    return lists.contains(version, slot);
  }
}
