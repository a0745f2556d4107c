package io.isowatch.core.online;

/**
 * Per key: the counted transactions whose version of the key starts a chain of its own, because
 * they wrote it blindly or after a read of the key that cannot be attributed (a value written
 * twice). Every version order puts the initial version first, so each reader of the initial
 * version gets RW(reader → head) (docs/anomalies.md, "Certain edges"). Rebuilt by the replay of a
 * cut or a restore, like the readers and successors, so it is not checkpointed.
 */
final class ChainHeads {
  private final IntMultimap lists;

  ChainHeads(final int expected) {
    lists = new IntMultimap(expected);
  }

  void add(final int key, final int slot) {
    lists.add(key, slot);
  }

  int first(final int key) {
    return lists.first(key);
  }

  int next(final int entry) {
    return lists.next(entry);
  }

  int slot(final int entry) {
    return lists.value(entry);
  }
}
