package io.isowatch.core.online;

/**
 * Store {@code version-successors}: version → the counted transactions that read it and then
 * wrote its key (read-modify-write successors). One successor gives WW(writer → successor); a
 * second makes a divergence, a lost update (MTC Definition 10).
 */
final class VersionSuccessors extends VersionSlots {
  VersionSuccessors(final int expected) {
    super(expected);
  }
}
