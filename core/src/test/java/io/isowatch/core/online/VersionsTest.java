package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The version table's answers: {@link Versions#find} answers a key's newest written version from
 * a per-key slot and everything else from the (key, value) table, with the same result; {@link
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
    chains.addRead(4, version, false, step, none);
    assertFalse(chains.hasSiblingSuccessors(version));
    chains.addRead(5, version, true, step, none);
    assertTrue(chains.hasSiblingSuccessors(version), "a second reader wrote the key: a lost update");
    assertTrue(chains.isSuccessor(version, 3) && chains.isSuccessor(version, 5));
    assertFalse(chains.hasSiblingSuccessors(chains.initialVersion(k)));
  }
}
