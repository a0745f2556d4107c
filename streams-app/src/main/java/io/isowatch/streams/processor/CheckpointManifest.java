package io.isowatch.streams.processor;

import java.nio.ByteBuffer;

/**
 * Which checkpoint of a tenant's engine is current, kept in {@code tenant-checkpoints} next to the
 * chunks it names (docs/segmentation.md, "Checkpoints"): a format byte ({@value #FORMAT}), then the
 * generation, the number of chunks, the checkpoint's size and the first input index it does not
 * cover, big-endian. Every input before {@code firstInput} is folded into the checkpoint and
 * deleted from {@code tenant-transactions}.
 *
 * @param generation counts the tenant's checkpoints from 1; its chunks are keyed by it, so a new
 *     checkpoint never overwrites the one a crash might still need
 * @param chunks number of chunks
 * @param bytes total size, bytes
 * @param firstInput the rebuild replays the stored inputs from this index on
 */
record CheckpointManifest(long generation, int chunks, long bytes, long firstInput) {
  static final byte FORMAT = 1;
  private static final int SIZE = 1 + Long.BYTES + Integer.BYTES + Long.BYTES + Long.BYTES;

  CheckpointManifest {
    if (generation < 1 || chunks < 1 || bytes < 0 || firstInput < 0) {
      throw new IllegalArgumentException("impossible checkpoint manifest: generation " + generation
          + ", chunks " + chunks + ", bytes " + bytes + ", first input " + firstInput);
    }
  }

  byte[] toBytes() {
    return ByteBuffer.allocate(SIZE).put(FORMAT).putLong(generation).putInt(chunks).putLong(bytes)
        .putLong(firstInput).array();
  }

  /** Reads a manifest; {@link IllegalStateException} for bytes no version of IsoWatch wrote. */
  static CheckpointManifest fromBytes(final byte[] b) {
    if (b.length != SIZE || b[0] != FORMAT) {
      throw new IllegalStateException("unreadable tenant-checkpoints manifest: " + b.length
          + " bytes, format byte " + (b.length == 0 ? "none" : Byte.toString(b[0])));
    }
    final ByteBuffer in = ByteBuffer.wrap(b, 1, SIZE - 1);
    return new CheckpointManifest(in.getLong(), in.getInt(), in.getLong(), in.getLong());
  }
}
