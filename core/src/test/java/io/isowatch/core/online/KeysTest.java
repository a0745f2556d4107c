package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.history.InternedOps;
import io.isowatch.core.history.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Keys}: a key found by its reader's number has the id its name gives. */
class KeysTest {
  @Test
  void shouldGiveTheIdsOfTheNamesWhenKeysComeByNumber() {
    // Given: ops over 300 keys numbered by a reader in another order than the checker meets them
    final Random random = new Random(3);
    final Object numbering = new Object();
    final List<String> names = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      names.add("k" + i);
    }
    final Keys byNumber = new Keys();
    final Keys byName = new Keys();
    final Versions v1 = new Versions(1 << 10);
    final Versions v2 = new Versions(1 << 10);

    for (int step = 0; step < 5_000; step++) {
      // When
      final int n = random.nextInt(names.size());
      final InternedOps ops = new InternedOps(new Op[] {Op.read(names.get(n), null)}, new int[] {n}, numbering);
      final int id = byNumber.intern(ops, 0, v1, 0L);

      // Then
      assertEquals(byName.intern(names.get(n), v2, 0L), id, "key " + names.get(n));
    }
    assertEquals(byName.count(), byNumber.count());
  }

  @Test
  void shouldLookOpsOfAnotherNumberingUpByName() {
    // Given: a key seen in one numbering, then the same number in another numbering naming another key
    final Keys keys = new Keys();
    final Versions versions = new Versions(1 << 10);
    final int x = keys.intern(new InternedOps(new Op[] {Op.read("x", null)}, new int[] {0}, new Object()), 0,
        versions, 0L);

    // When
    final int y = keys.intern(new InternedOps(new Op[] {Op.read("y", null)}, new int[] {0}, new Object()), 0,
        versions, 0L);

    // Then
    assertEquals(0, x);
    assertEquals(1, y);
    assertEquals("y", keys.name(y));
  }

  @Test
  void shouldEqualAListOfTheSameOps() {
    final List<Op> ops = List.of(Op.read("x", 1L), Op.write("x", 2L));
    final InternedOps interned = new InternedOps(ops.toArray(new Op[0]), new int[] {4, 4}, new Object());
    assertEquals(ops, interned);
    assertEquals(interned, ops);
    assertEquals(ops.hashCode(), interned.hashCode());
  }
}
