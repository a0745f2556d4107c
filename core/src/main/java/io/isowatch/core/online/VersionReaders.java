package io.isowatch.core.online;

/**
 * Store {@code version-readers}: version → the counted transactions whose external read of its
 * key returned it. Each gets RW(reader → S) for every successor S of the version but itself.
 */
final class VersionReaders {
  private final IntMultimap lists;

  VersionReaders(final int expected) {
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
}
