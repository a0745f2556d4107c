package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link LongIntMap}, the element positions of a key's order, against a {@code HashMap} model. */
class LongIntMapTest {

  @Test
  void shouldKeepTheFirstValueWhenAKeyIsPutTwice() {
    // Given: a map with one element put at 3
    final LongIntMap map = new LongIntMap(4);
    assertTrue(map.putIfAbsent(7L, 3));

    // When: the same element is put again at a later index (a repeated element of a list)
    final boolean added = map.putIfAbsent(7L, 5);

    // Then: the first index stands, as the order's first occurrence does
    assertFalse(added);
    assertEquals(3, map.get(7L));
  }

  @Test
  void shouldAnswerMinusOneForAbsentKeysIncludingZeroAndTheExtremes() {
    // Given: a map whose slots are all empty, one with zero and the extremes in it
    final LongIntMap empty = new LongIntMap(0);
    final LongIntMap full = new LongIntMap(3);
    full.putIfAbsent(0L, 0);
    full.putIfAbsent(Long.MIN_VALUE, 1);
    full.putIfAbsent(Long.MAX_VALUE, 2);

    // Then: an empty slot (key 0 in its array) is no entry of key 0, and each extreme is found
    assertEquals(-1, empty.get(0L));
    assertEquals(-1, empty.get(Long.MIN_VALUE));
    assertEquals(0, full.get(0L));
    assertEquals(1, full.get(Long.MIN_VALUE));
    assertEquals(2, full.get(Long.MAX_VALUE));
    assertEquals(-1, full.get(1L));
  }

  @Test
  void shouldRefuseANegativeValue() {
    assertThrows(IllegalArgumentException.class, () -> new LongIntMap(1).putIfAbsent(1L, -1));
  }

  @Test
  void shouldAgreeWithAHashMapOnRandomAndCollidingKeys() {
    final Random rnd = new Random(14_5L);
    for (int round = 0; round < 200; round++) {
      // Given: up to 300 keys, from a small range (repeats), a wide one, and multiples of a power of
      // two (the same low bits: they collide in a table indexed by low bits)
      final int n = rnd.nextInt(300);
      final LongIntMap map = new LongIntMap(n);
      final Map<Long, Integer> model = new HashMap<>();
      for (int i = 0; i < n; i++) {
        final long key = switch (rnd.nextInt(3)) {
          case 0 -> rnd.nextInt(50) - 25;
          case 1 -> rnd.nextLong();
          default -> (long) rnd.nextInt(1000) << 32;
        };
        // When: each is put at its index
        assertEquals(!model.containsKey(key), map.putIfAbsent(key, i), "put " + key);
        model.putIfAbsent(key, i);
      }
      // Then: every key put, and others, are found as the model has them
      for (final Map.Entry<Long, Integer> e : model.entrySet()) {
        assertEquals(e.getValue(), map.get(e.getKey()), "key " + e.getKey());
      }
      for (int i = 0; i < 100; i++) {
        final long probe = rnd.nextInt(3) == 0 ? rnd.nextInt(60) - 30 : rnd.nextLong();
        assertEquals(model.getOrDefault(probe, -1), map.get(probe), "probe " + probe);
      }
    }
  }
}
