package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.InternedOps;
import java.util.ArrayList;
import java.util.List;

/**
 * Store {@code keys}: key name → key id (given in processing order), its initial version, and
 * whether the history leaves its version order open: a value of it was written twice (reads of
 * it cannot be attributed), or some of its versions were written without a read of the key first
 * (heads: blind writes, or writes after a read that has no writer). Such keys make levels without
 * a certain violation UNKNOWN.
 */
final class Keys {
  private final StringIntMap ids = new StringIntMap(1 << 10);
  private final List<String> names = new ArrayList<>();
  private final IntList initVersion = new IntList(1 << 10);
  private final IntList heads = new IntList(1 << 10);
  private final IntList ambiguous = new IntList(1 << 10);
  private int undetermined;
  /** The numbering of {@link InternedOps} whose key numbers {@link #idByNumber} maps, or null. */
  private Object numbering;
  /** Key number in {@link #numbering} → key id + 1 (0: not seen yet). */
  private int[] idByNumber = new int[1 << 10];

  /** The id of the key, made (with its initial version) on first sight. */
  int intern(final String name, final Versions versions, final Long initialValue) {
    final int id = ids.get(name);
    if (id >= 0) {
      return id;
    }
    final int k = names.size();
    ids.putNew(name, k);
    names.add(name);
    initVersion.add(versions.addInitial(k, initialValue));
    heads.add(0);
    ambiguous.add(0);
    return k;
  }

  /**
   * The id of the key of {@code ops}' {@code j}th op, as {@link #intern(String, Versions, Long)} of its
   * name gives it, found by the key's number in {@code ops}' numbering when this numbering was seen
   * before (an array index instead of a hash lookup by name). Keys follow one numbering, the first
   * seen; ops of another one are looked up by name.
   */
  int intern(final InternedOps ops, final int j, final Versions versions, final Long initialValue) {
    if (ops.numbering() != numbering) {
      if (numbering != null) {
        return intern(ops.get(j).key(), versions, initialValue);
      }
      numbering = ops.numbering();
    }
    final int n = ops.keyNumber(j);
    if (n < idByNumber.length) {
      final int known = idByNumber[n] - 1;
      if (known >= 0) {
        return known;
      }
    } else {
      idByNumber = java.util.Arrays.copyOf(idByNumber, Math.max(n + 1, 2 * idByNumber.length));
    }
    final int k = intern(ops.get(j).key(), versions, initialValue);
    idByNumber[n] = k + 1;
    return k;
  }

  /**
   * Makes the next key id for {@code name} with this initial value (a cut seeds the next segment's
   * keys in the old id order, each with its frontier value as initial version).
   */
  int seed(final String name, final Versions versions, final Long initial) {
    if (ids.get(name) >= 0) {
      throw new IllegalStateException("key seeded twice: " + name);
    }
    return intern(name, versions, initial);
  }

  /**
   * Takes over {@code old}'s map from key numbers to ids: a cut seeds this store with {@code old}'s
   * keys in {@code old}'s id order, so each key keeps its id, and the replay that follows finds its
   * keys by number instead of looking each up by name once more.
   */
  void carryNumbering(final Keys old) {
    if (old.names.size() > names.size() || !old.names.equals(names.subList(0, old.names.size()))) {
      throw new IllegalStateException("keys not seeded in the replaced store's id order");
    }
    numbering = old.numbering;
    idByNumber = old.idByNumber.clone();
  }

  /** Per key id: its head count (versions written without a read of the key first). */
  int[] headCounts() {
    return heads.toArray();
  }

  /** Per key id: whether a value of it was written twice. */
  boolean[] ambiguousFlags() {
    final boolean[] out = new boolean[names.size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = ambiguous.get(k) != 0;
    }
    return out;
  }

  /** Sets the open-order flags of the keys {@code 0 .. heads.length - 1} (a cut, a restore). */
  void setFlags(final int[] headCounts, final boolean[] ambiguousFlags) {
    undetermined = 0;
    for (int k = 0; k < names.size(); k++) {
      if (k < headCounts.length) {
        heads.set(k, headCounts[k]);
        ambiguous.set(k, ambiguousFlags[k] ? 1 : 0);
      }
      if (heads.get(k) > 0 || ambiguous.get(k) != 0) {
        undetermined++;
      }
    }
  }

  int count() {
    return names.size();
  }

  String name(final int k) {
    return names.get(k);
  }

  int initVersion(final int k) {
    return initVersion.get(k);
  }

  void markAmbiguous(final int k) {
    if (ambiguous.get(k) == 0) {
      if (heads.get(k) == 0) {
        undetermined++;
      }
      ambiguous.set(k, 1);
    }
  }

  void addHead(final int k) {
    if (heads.get(k) == 0 && ambiguous.get(k) == 0) {
      undetermined++;
    }
    heads.set(k, heads.get(k) + 1);
  }

  /** Undoes one {@link #addHead} (a retracted ThinAirRead whose read is attributed after all). */
  void removeHead(final int k) {
    final int n = heads.get(k);
    if (n == 0) {
      return;
    }
    heads.set(k, n - 1);
    if (n == 1 && ambiguous.get(k) == 0) {
      undetermined--;
    }
  }

  boolean isAmbiguous(final int k) {
    return ambiguous.get(k) != 0;
  }

  int heads(final int k) {
    return heads.get(k);
  }

  /** Keys whose version order is open. */
  int undeterminedCount() {
    return undetermined;
  }
}
