package io.isowatch.core.online;

/**
 * Store {@code version-readers}: version → the counted transactions whose external read of its
 * key returned it. Each gets RW(reader → S) for every successor S of the version but itself.
 */
final class VersionReaders extends VersionSlots {
  VersionReaders(final int expected) {
    super(expected);
  }
}
