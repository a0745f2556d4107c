package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The version table's answers: {@link Versions#find} and {@link Versions#addWritten} answer from a
 * key's chain of versions or from the (key, value) table, and every answer is a model map's; {@link
 * VersionChains#hasSiblingSuccessors} holds exactly when two readers of a version wrote its key.
 */
class VersionsTest {
  @Test
  void shouldFindEveryWrittenVersionAndNothingElse() {
    final Versions v = new Versions(16);
    final int init0 = v.addInitial(0, 0L);
    final int init1 = v.addInitial(1, 0L);
    assertEquals(-1, v.addWritten(0, 5, 10, true));
    final int a = v.last();
    assertEquals(-1, v.addWritten(1, 7, 11, true));
    final int b = v.last();
    assertEquals(-1, v.addWritten(0, 9, 12, false));
    final int c = v.last();
    assertEquals(a, v.find(0, 5), "an older version of the key, from the table");
    assertEquals(c, v.find(0, 9), "the key's newest version");
    assertEquals(b, v.find(1, 7));
    assertEquals(-1, v.find(1, 9), "key 0's newest value is not key 1's");
    assertEquals(-1, v.find(0, 7), "key 1's value is not key 0's");
    assertEquals(-1, v.find(0, 0), "an initial version is not a written one");
    assertEquals(-1, v.find(1, 0));
    assertEquals(-1, v.find(2, 5), "an unknown key");
    assertTrue(init0 != a && init1 != b);
    // A value written again keeps its first version, and the key's newest version stays c.
    assertEquals(a, v.addWritten(0, 5, 13, true));
    assertEquals(c, v.find(0, 9));
    assertEquals(a, v.find(0, 5));
    assertEquals(10, v.writer(v.find(0, 5)));
    assertTrue(v.isFinal(a));
    assertFalse(v.isFinal(c));
  }

  @Test
  void shouldAnswerLikeTheTableForManyKeysAndValues() {
    final Versions v = new Versions(4);
    final java.util.Random random = new java.util.Random(7);
    final java.util.Map<Long, Integer> expected = new java.util.HashMap<>();
    for (int k = 0; k < 3000; k++) {
      v.addInitial(k, null);
    }
    for (int i = 0; i < 50_000; i++) {
      final int k = random.nextInt(3000);
      final long value = random.nextInt(20_000);
      final int r = v.addWritten(k, value, i, true);
      final long pair = (long) k << 32 | value;
      if (r < 0) {
        assertEquals(null, expected.put(pair, v.last()));
      } else {
        assertEquals(expected.get(pair), r);
      }
      final int qk = random.nextInt(3000);
      final long qv = random.nextInt(20_000);
      assertEquals(expected.getOrDefault((long) qk << 32 | qv, -1), v.find(qk, qv));
      assertEquals(expected.get(pair), v.find(k, value));
    }
  }

  @Test
  void shouldFindARepeatedValueWhateverOrderItsKeysValuesCameIn() {
    // Given: key 0 written 10, 30, then 20 (below 30: looked up, then kept in the table), then 40
    final Versions v = new Versions(4);
    v.addInitial(0, 0L);
    v.addInitial(1, 0L);
    assertEquals(-1, v.addWritten(0, 10, 1, true));
    final int ten = v.last();
    assertEquals(-1, v.addWritten(0, 30, 2, true));
    final int thirty = v.last();
    assertEquals(-1, v.addWritten(0, 20, 3, true));
    final int twenty = v.last();
    assertEquals(-1, v.addWritten(0, 40, 4, true));
    final int forty = v.last();
    assertEquals(-1, v.addWritten(1, 20, 5, true), "the same value of another key is not a repeat");
    // When / Then: each value written again is the version written first, however far back
    assertEquals(twenty, v.addWritten(0, 20, 6, true), "a value below the greatest, behind a greater one");
    assertEquals(thirty, v.addWritten(0, 30, 7, true), "a value above the out-of-order one, two back");
    assertEquals(ten, v.addWritten(0, 10, 8, true), "the first value");
    assertEquals(forty, v.addWritten(0, 40, 9, true), "the newest value");
    assertEquals(-1, v.addWritten(0, 25, 10, true), "a value between two written ones is new");
    assertEquals(-1, v.find(0, 15));
    assertEquals(-1, v.find(0, 50));
    assertEquals(-1, v.find(0, 0), "the initial value is not a written version");
    // A value written long ago, behind more versions than one walk takes.
    for (int i = 0; i < 3 * Versions.WALK; i++) {
      assertEquals(-1, v.addWritten(0, 100 + i, 20 + i, true));
    }
    assertEquals(twenty, v.addWritten(0, 20, 99, true), "an out-of-order value behind a long chain");
    assertEquals(ten, v.addWritten(0, 10, 99, true), "an ordered value behind a long chain");
    assertEquals(thirty, v.find(0, 30));
    assertEquals(-1, v.find(0, 35));
    assertEquals(-1, v.addWritten(0, 36, 99, true), "a new value below the greatest after the key was indexed");
    assertEquals(v.last(), v.find(0, 36));
    final int thirtySix = v.last();
    assertEquals(thirtySix, v.addWritten(0, 36, 100, true));
    assertEquals(-1, v.addWritten(0, 200, 101, true));
    final int twoHundred = v.last();
    for (int i = 0; i < 4; i++) {
      assertEquals(-1, v.addWritten(0, 300 + i, 102 + i, true));
    }
    assertEquals(twoHundred, v.addWritten(0, 200, 110, true), "a value written after the key was indexed");
    assertEquals(thirtySix, v.addWritten(0, 36, 111, true));
    assertEquals(3, v.writer(twenty));
  }

  @Test
  void shouldAnswerLikeAMapForMostlyIncreasingValuesWithRepeatsAndOldReads() {
    // Values per key mostly increase (as counters do), some come late or again, and lookups ask
    // for recent, old and unwritten values: every answer must be the model map's.
    final java.util.Random random = new java.util.Random(11);
    for (int round = 0; round < 20; round++) {
      final Versions v = new Versions(4);
      final int keys = 1 + random.nextInt(40);
      final long[] counter = new long[keys];
      final java.util.Map<Long, Integer> expected = new java.util.HashMap<>();
      for (int k = 0; k < keys; k++) {
        v.addInitial(k, round % 2 == 0 ? null : 0L);
      }
      for (int i = 0; i < 5_000; i++) {
        final int k = random.nextInt(keys);
        final long value;
        final int dice = random.nextInt(100);
        if (dice < 80) {
          value = ++counter[k];
        } else if (dice < 95) {
          value = Math.max(1, counter[k] - random.nextInt(5));
        } else {
          value = 1 + random.nextInt((int) Math.max(1, counter[k] + 3));
        }
        final long pair = (long) k << 32 | value;
        final int r = v.addWritten(k, value, i, random.nextBoolean());
        if (r < 0) {
          assertEquals(null, expected.put(pair, v.last()), "a repeat of " + k + "=" + value + " taken as new");
        } else {
          assertEquals(expected.get(pair), r, "the repeat of " + k + "=" + value);
        }
        final int qk = random.nextInt(keys);
        final long qv = Math.max(1, counter[qk] + 2 - random.nextInt(random.nextBoolean() ? 4 : 200));
        assertEquals(expected.getOrDefault((long) qk << 32 | qv, -1), v.find(qk, qv), "find " + qk + "=" + qv);
      }
    }
  }

  @Test
  void shouldKnowWhenTwoReadersOfAVersionWroteItsKey() {
    final VersionChains chains = new VersionChains(0L, 16);
    final int k = chains.key("x");
    assertEquals(-1, chains.addWritten(k, 1, 1, true));
    final int version = chains.lastVersion();
    final StepEdges step = new StepEdges();
    final VersionChains.LostUpdates none = (ver, first, second) -> { };
    chains.addRead(2, version, false, step, none);
    chains.addRead(3, version, true, step, none);
    assertFalse(chains.hasSiblingSuccessors(version), "one reader wrote the key");
    assertFalse(chains.anySiblingSuccessors(), "no version has two successors yet");
    chains.addRead(4, version, false, step, none);
    assertFalse(chains.hasSiblingSuccessors(version));
    chains.addRead(5, version, true, step, none);
    assertTrue(chains.hasSiblingSuccessors(version), "a second reader wrote the key: a lost update");
    assertTrue(chains.anySiblingSuccessors(), "some version has two successors now");
    assertTrue(chains.isSuccessor(version, 3) && chains.isSuccessor(version, 5));
    assertFalse(chains.hasSiblingSuccessors(chains.initialVersion(k)));
  }

  @Test
  void shouldTellWhetherAReadReadsItsKeysInitialVersionWithAndWithoutAnInitialValue() {
    // Given: keys starting at 0 (x) and absent (y: a history without an initial value)
    final VersionChains zero = new VersionChains(0L, 16);
    final VersionChains absent = new VersionChains(null, 16);
    final int x = zero.key("x");
    final int y = absent.key("y");
    zero.addWritten(x, 5, 1, true);
    absent.addWritten(y, 0, 1, true);
    // When / Then: the same answers as Objects.equals(read value, initial value)
    assertTrue(zero.readsInitial(x, 0L));
    assertFalse(zero.readsInitial(x, 5L), "a written value");
    assertFalse(zero.readsInitial(x, null), "null is not 0");
    final VersionChains large = new VersionChains(5_000L, 16);
    final int z = large.key("z");
    assertTrue(large.readsInitial(z, Long.valueOf(5_000L)), "an initial value beyond Long's cache, equal by value");
    assertFalse(large.readsInitial(z, 0L));
    assertTrue(absent.readsInitial(y, null));
    assertFalse(absent.readsInitial(y, 0L), "0 is a written value here, not the absent initial version");
  }
}
