package io.isowatch.streams.processor;

import java.nio.ByteBuffer;

/**
 * Which checkpoint of a tenant's engine is current, kept in {@code tenant-checkpoints} next to the
 * chunks it names (docs/segmentation.md, "Checkpoints"): a format byte ({@value #FORMAT}), then the
 * generation, the number of chunks, the checkpoint's size, the first input index it does not
 * cover and the index below which every input is deleted from {@code tenant-transactions},
 * big-endian. Inputs from {@code deletedBelow} to {@code firstInput} are folded into the checkpoint
 * and deleted a few per later input. Format 1 (no {@code deletedBelow}: everything a checkpoint
 * covered was deleted with it) is still read.
 *
 * @param generation counts the tenant's checkpoints from 1; its chunks are keyed by it, so a new
 *     checkpoint never overwrites the one a crash might still need
 * @param chunks number of chunks
 * @param bytes total size, bytes
 * @param firstInput the rebuild replays the stored inputs from this index on
 * @param deletedBelow every input below this index is deleted; at most {@code firstInput}
 */
record CheckpointManifest(long generation, int chunks, long bytes, long firstInput, long deletedBelow) {
  static final byte FORMAT = 2;
  private static final byte FORMAT_1 = 1;
  private static final int SIZE_1 = 1 + Long.BYTES + Integer.BYTES + Long.BYTES + Long.BYTES;
  private static final int SIZE = SIZE_1 + Long.BYTES;

  CheckpointManifest {
    if (generation < 1 || chunks < 1 || bytes < 0 || firstInput < 0 || deletedBelow < 0 || deletedBelow > firstInput) {
      throw new IllegalArgumentException("impossible checkpoint manifest: generation " + generation
          + ", chunks " + chunks + ", bytes " + bytes + ", first input " + firstInput + ", deleted below "
          + deletedBelow);
    }
  }

  byte[] toBytes() {
    return ByteBuffer.allocate(SIZE).put(FORMAT).putLong(generation).putInt(chunks).putLong(bytes)
        .putLong(firstInput).putLong(deletedBelow).array();
  }

  /** Reads a manifest; {@link IllegalStateException} for bytes no version of IsoWatch wrote. */
  static CheckpointManifest fromBytes(final byte[] b) {
    final boolean current = b.length == SIZE && b[0] == FORMAT;
    if (!current && !(b.length == SIZE_1 && b[0] == FORMAT_1)) {
      throw new IllegalStateException("unreadable tenant-checkpoints manifest: " + b.length
          + " bytes, format byte " + (b.length == 0 ? "none" : Byte.toString(b[0])));
    }
    final ByteBuffer in = ByteBuffer.wrap(b, 1, b.length - 1);
    final long generation = in.getLong();
    final int chunks = in.getInt();
    final long bytes = in.getLong();
    final long firstInput = in.getLong();
    return new CheckpointManifest(generation, chunks, bytes, firstInput, current ? in.getLong() : firstInput);
  }
}
