package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Transaction;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The checkpoint format refuses what is not one of its checkpoints, and checkpoint() when there is none. */
class CheckpointCodecTest {
  private static final OnlineOptions ONLINE = OnlineOptions.streaming(1_000)
      .withHorizon(new Horizon(50, Horizon.UNLIMITED, false, 1 << 12));

  @Test
  void shouldRefuseEveryTruncationWithAMessage() {
    // Given
    final byte[] bytes = checkpoint();

    // When / Then
    for (int n = 0; n < bytes.length; n += 1 + n / 16) {
      final byte[] cut = Arrays.copyOf(bytes, n);
      final CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> restore(cut), "length " + n);
      assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("not a checkpoint"), e.getMessage());
    }
  }

  @Test
  void shouldRefuseAnotherVersion() {
    // Given
    final byte[] bytes = checkpoint();
    ByteBuffer.wrap(bytes).putInt(4, 7);

    // When
    final CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> restore(bytes));

    // Then
    assertEquals("unsupported checkpoint format version 7 (this release reads 1, 2, 3, 4, 5 and 6)", e.getMessage());
  }

  @Test
  void shouldRefuseTrailingBytes() {
    // Given
    final byte[] bytes = checkpoint();
    final byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);

    // When
    final CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> restore(longer));

    // Then
    assertTrue(e.getMessage().startsWith("trailing bytes after the checkpoint"), e.getMessage());
  }

  @Test
  void shouldRefuseRandomBytesAndOtherData() {
    final Random rnd = new Random(5);
    for (int i = 0; i < 200; i++) {
      final byte[] junk = new byte[rnd.nextInt(300)];
      rnd.nextBytes(junk);
      final CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> restore(junk));
      assertTrue(e.getMessage().startsWith("not a checkpoint"), e.getMessage());
    }
    assertThrows(CheckpointFormatException.class, () -> restore("{\"id\":\"t1\"}".getBytes()));
    assertThrows(CheckpointFormatException.class, () -> restore(null));
  }

  @Test
  void shouldRefuseACorruptBodyByItsChecksum() {
    // Given
    final byte[] bytes = checkpoint();
    bytes[CheckpointFormat.HEADER + 5] ^= 0x10;

    // When
    final CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> restore(bytes));

    // Then
    assertEquals("corrupt checkpoint: the checksum does not match", e.getMessage());
  }

  @Test
  void shouldRefuseOrRestoreButNeverCrashWhenTheBodyIsCorruptBehindAValidChecksum() {
    // Given: bit flips with the checksum made valid again, as a buggy writer would produce
    final byte[] bytes = checkpoint();
    final Random rnd = new Random(11);
    int refused = 0;
    for (int i = 0; i < 300; i++) {
      final byte[] bad = bytes.clone();
      final int at = CheckpointFormat.HEADER + rnd.nextInt(bad.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM);
      bad[at] ^= (byte) (1 << rnd.nextInt(8));
      final CRC32 crc = new CRC32();
      crc.update(bad, 0, bad.length - CheckpointFormat.CHECKSUM);
      ByteBuffer.wrap(bad).putInt(bad.length - CheckpointFormat.CHECKSUM, (int) crc.getValue());

      // When / Then: either refused with the format exception, or a working engine
      try {
        final OnlineChecker c = restore(bad);
        c.flush();
        c.result();
      } catch (final CheckpointFormatException e) {
        refused++;
      }
    }
    assertTrue(refused > 0, "no corruption was noticed");
  }

  @Test
  void shouldThrowIllegalStateWhenNotRightAfterACut() {
    // Given
    final OnlineChecker fresh = new OnlineChecker(CheckOptions.defaults(), ONLINE);
    final OnlineChecker unsegmented = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000));
    final OnlineChecker cut = engine(history());
    cut.prune();
    final OnlineChecker moved = engine(history());
    moved.prune();
    moved.accept(new Transaction("late-1", "s-late", 0, io.isowatch.core.history.TxnStatus.COMMITTED, 1, 2,
        List.of(), null, null, 0));

    // When / Then
    assertFalse(fresh.checkpointable());
    assertThrows(IllegalStateException.class, fresh::checkpoint);
    assertFalse(unsegmented.prune());
    assertThrows(IllegalStateException.class, unsegmented::checkpoint);
    assertThrows(IllegalStateException.class, moved::checkpoint);
    assertFalse(cut.prune(), "nothing left to prune right after a cut");
    assertThrows(IllegalStateException.class, cut::checkpoint);
  }

  @Test
  void shouldRestoreUnderOtherOptionsAndCheckpointTheSameBytes() {
    // Given
    final byte[] bytes = checkpoint();
    final CheckOptions serOnly = CheckOptions.defaults().withLevels(EnumSet.of(Level.SER));

    // When
    final OnlineChecker c = OnlineChecker.restore(serOnly, OnlineOptions.streaming(5), bytes);

    // Then: the same state, checked from now on under the caller's options
    assertTrue(c.checkpointable());
    final byte[] again = c.checkpoint();
    assertArrayEquals(again, OnlineChecker.restore(serOnly, OnlineOptions.streaming(5), again).checkpoint());
    c.flush();
    assertEquals(EnumSet.of(Level.SER), c.result().verdicts().keySet());
  }

  @Test
  void shouldRoundTripTheSmallestTransactions() {
    // Given: one-letter ids, no seq, no times, no ops: the fewest bytes a transaction can take
    final OnlineOptions online = OnlineOptions.streaming(0).withHorizon(new Horizon(5, Horizon.UNLIMITED, false, 64));
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), online);
    for (final String id : List.of("a", "b", "c", "d", "e", "f", "g")) {
      c.accept(new Transaction(id, "s", Transaction.NO_SEQ, io.isowatch.core.history.TxnStatus.COMMITTED,
          Transaction.NO_TIME, Transaction.NO_TIME, List.of(), null, null, 0));
    }
    c.flush();
    assertTrue(c.prune());

    // When
    final byte[] bytes = c.checkpoint();

    // Then
    assertArrayEquals(bytes, OnlineChecker.restore(CheckOptions.defaults(), online, bytes).checkpoint());
  }

  @Test
  void shouldRoundTripExactly() {
    final byte[] bytes = checkpoint();
    assertArrayEquals(bytes, restore(bytes).checkpoint());
  }

  private static byte[] checkpoint() {
    final OnlineChecker c = engine(history());
    assertTrue(c.prune(), "the history should leave something to prune");
    return c.checkpoint();
  }

  private static OnlineChecker restore(final byte[] bytes) {
    return OnlineChecker.restore(CheckOptions.defaults(), ONLINE, bytes);
  }

  private static OnlineChecker engine(final List<Transaction> txns) {
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), ONLINE);
    txns.forEach(c::accept);
    return c;
  }

  private static List<Transaction> history() {
    return MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(3).withTransactions(170)
        .withSessions(4).withKeys(8)).transactions();
  }
}
