package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An anomaly's read in a checkpoint (format 1, extended): flagged in the levels byte and written
 * after the explanation, so that an anomaly without one keeps the bytes it always had and a reader
 * that predates the flag refuses the checkpoint instead of misreading it.
 */
class CheckpointAnomalyReadTest {
  private static final Transaction T1 = new Transaction("T1", "s1", 0, TxnStatus.COMMITTED, 10, 20,
      List.of(Op.read("x", 5L), Op.read("y", null)), null, null, 1);
  private static final Anomaly WITHOUT = new Anomaly("thin-air", "ThinAirRead", Level.CLASSIC,
      List.of(T1), List.of(), "T1 read y=null, …");
  private static final Anomaly WITH = new Anomaly("thin-air", "ThinAirRead", Level.CLASSIC,
      List.of(T1), List.of(), "T1 read y=null, …", new AnomalyRead("T1", 1, "y", null));

  @Test
  void shouldRoundTripAnAnomalyWithAndWithoutItsRead() {
    // When / Then
    assertEquals(WITH, CheckpointRecords.readAnomaly(input(bytes(WITH))));
    assertEquals(WITHOUT, CheckpointRecords.readAnomaly(input(bytes(WITHOUT))));
  }

  @Test
  void shouldKeepTheOldBytesWithoutAReadAndFlagTheReadForOlderReaders() {
    // When
    final byte[] without = bytes(WITHOUT);
    final byte[] with = bytes(WITH);
    // Then: the same bytes but for the flag in the levels byte and the read after the explanation
    final int levels = indexOfLevels(without);
    final byte[] unflagged = Arrays.copyOf(with, without.length);
    unflagged[levels] = without[levels];
    assertArrayEquals(without, unflagged);
    assertEquals(0x80 | without[levels], with[levels] & 0xFF);
    // ... and a reader that predates the flag meets it as a level mask it refuses
    assertThrows(CheckpointFormatException.class, () -> CheckpointRecords.levels(with[levels] & 0xFF));
  }

  private static int indexOfLevels(final byte[] encoded) {
    // type and name are dictionary names: the levels byte follows them; find it as the first byte
    // that differs between the encodings with and without the flag.
    final byte[] flagged = bytes(WITH);
    for (int i = 0; i < encoded.length; i++) {
      if (encoded[i] != flagged[i]) {
        return i;
      }
    }
    throw new AssertionError("the encodings do not differ");
  }

  private static byte[] bytes(final Anomaly a) {
    final CheckpointOutput out = new CheckpointOutput();
    LegacyCheckpointWriter.writeAnomaly(out, a);
    return out.toByteArray();
  }

  private static CheckpointInput input(final byte[] bytes) {
    return new CheckpointInput(bytes, 0, bytes.length);
  }
}
