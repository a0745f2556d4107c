package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * Checkpoints of the hand-written codec, stored by older releases, still restore: one of format 2
 * (scalable filters, varint codec) to exactly the state its format-3 (Avro) checkpoint restores;
 * one of format 1 (fixed-size filters of retired versions, written before issue 10) with each
 * filter as the closed first stage of a scalable one, and the engine goes on finding what an
 * engine restored from the same state in format 2 finds. {@link LegacyCheckpointWriter} writes both.
 *
 * <p>The format-1 bytes are made from a format-2 checkpoint whose filters have one stage each, by
 * dropping the stage headers: a stage's first 4 bit positions of a version are the 4 a format-1
 * filter of the same size used, so the format-1 reading answers "maybe" for every version added.
 */
class CheckpointFormatOneTest {
  private static final OnlineOptions ONLINE = OnlineOptions.streaming(2_000)
      .withHorizon(Horizon.ofTransactions(200).withFilters(1 << 20, Horizon.MAX_FILTER_BITS).withMaxRunBytes(0));

  @Test
  void shouldRestoreAFormatOneCheckpointAndFindWhatTheFormatTwoRestoreFinds() {
    // Given: an engine checkpointed half way through a history with stale and thin-air reads
    final List<Transaction> txns = history();
    final OnlineChecker original = new OnlineChecker(CheckOptions.defaults(), ONLINE);
    txns.subList(0, 1_500).forEach(original::accept);
    assertTrue(original.prune(), "nothing to prune");
    final byte[] v2 = LegacyCheckpointWriter.write(original);
    final byte[] v1 = formatOne(v2);
    final byte[] v3 = original.checkpoint();

    // When
    final OnlineChecker fromV1 = OnlineChecker.restore(CheckOptions.defaults(), ONLINE, v1);
    final OnlineChecker fromV2 = OnlineChecker.restore(CheckOptions.defaults(), ONLINE, v2);
    for (final Transaction t : txns.subList(1_500, txns.size())) {
      fromV1.accept(t);
      fromV2.accept(t);
    }
    fromV1.flush();
    fromV2.flush();

    // Then: format 2 restores exactly the state format 3 restores (the checkpoint it writes is the same)
    assertArrayEquals(CheckpointPropertyTest.withoutTimings(v3),
        CheckpointPropertyTest.withoutTimings(OnlineChecker.restore(CheckOptions.defaults(), ONLINE, v2).checkpoint()));
    // ... and format 1 gives the same verdicts, anomalies and findings (texts aside: they quote the probabilities)
    assertEquals(1, ByteBuffer.wrap(v1).getInt(4));
    assertEquals(2, ByteBuffer.wrap(v2).getInt(4));
    final CheckResult r1 = fromV1.result();
    final CheckResult r2 = fromV2.result();
    assertEquals(r2.verdicts(), r1.verdicts());
    assertEquals(signatures(r2), signatures(r1));
    assertEquals(r2.findings().stream().map(f -> f.kind() + "/" + f.key() + "/" + f.count()).toList(),
        r1.findings().stream().map(f -> f.kind() + "/" + f.key() + "/" + f.count()).toList());
    assertTrue(r1.stats().anomaliesByName().containsKey("ThinAirRead"), r1.stats().anomaliesByName().toString());
    assertTrue(fromV1.staleReads() > 0, "no stale read after the restore");
    // Its next checkpoint is of the current format (3, Avro) and restores to the same engine.
    assertTrue(fromV1.prune(), "nothing to prune");
    final byte[] again = fromV1.checkpoint();
    assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(again).getInt(4));
    assertEquals(signatures(fromV1.result()),
        signatures(OnlineChecker.restore(CheckOptions.defaults(), ONLINE, again).result()));
    assertTrue(fromV1.retiredFalsePositiveRatio() <= 1 && fromV1.retiredFalsePositiveRatio() > 0);
  }

  private static List<String> signatures(final CheckResult r) {
    return r.anomalies().stream().map(a -> a.displayName() + a.txnIds()).toList();
  }

  /** The format-1 form of a format-2 checkpoint whose two filters have one stage each. */
  private static byte[] formatOne(final byte[] v2) {
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final int[] at = {CheckpointFormat.HEADER};
    for (int filter = 0; filter < 2; filter++) {
      final long firstBits = varint(v2, at);
      varint(v2, at); // cap
      final long stages = varint(v2, at);
      if (stages == 0) {
        // Nothing added yet: a format-1 filter of the same size, empty (sparse, no word set).
        for (long rest = firstBits / 64; ; rest >>>= 7) {
          if (rest < 0x80) {
            body.write((int) rest);
            break;
          }
          body.write((int) (rest & 0x7F) | 0x80);
        }
        body.write(new byte[] {0, 1, 0}, 0, 3);
        continue;
      }
      assertEquals(1, stages, "stages of filter " + filter);
      assertEquals(0, varint(v2, at), "stage index");
      varint(v2, at); // hashes
      assertEquals(0, v2[at[0]++], "format-1 flag");
      final int start = at[0];
      final long words = varint(v2, at);
      varint(v2, at); // versions added
      if (v2[at[0]++] == 0) {
        at[0] += (int) (8 * words);
      } else {
        final long nonZero = varint(v2, at);
        for (long i = 0; i < nonZero; i++) {
          varint(v2, at);
          at[0] += 8;
        }
      }
      body.write(v2, start, at[0] - start);
    }
    body.write(v2, at[0], v2.length - CheckpointFormat.CHECKSUM - at[0]);
    final byte[] b = body.toByteArray();
    final int length = CheckpointFormat.HEADER + b.length + CheckpointFormat.CHECKSUM;
    final ByteBuffer out = ByteBuffer.allocate(length);
    out.put(v2, 0, CheckpointFormat.HEADER).put(b);
    out.putInt(4, CheckpointFormat.VERSION_FIXED_FILTERS).putInt(8, length);
    final CRC32 crc = new CRC32();
    crc.update(out.array(), 0, length - CheckpointFormat.CHECKSUM);
    out.putInt(length - CheckpointFormat.CHECKSUM, (int) crc.getValue());
    return out.array();
  }

  private static long varint(final byte[] b, final int[] at) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      final int x = b[at[0]++] & 0xFF;
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
  }

  private static List<Transaction> history() {
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(21)
        .withTransactions(3_000).withSessions(6).withKeys(12)
        .withInjections(List.of(new Injection(InjectedKind.THIN_AIR_READ, 2))).withInjectAt(0.9));
    return HistoryMutations.withStaleReads(h, new Random(5), 0.02).transactions();
  }
}
