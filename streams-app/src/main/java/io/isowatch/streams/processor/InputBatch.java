package io.isowatch.streams.processor;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Several consecutive inputs of one tenant stored as one {@code tenant-transactions} entry, keyed by
 * the index of its first input. Storing every input as its own entry cost a RocksDB put and a
 * changelog record per input, and later a delete and a tombstone (docs/streaming-design.md,
 * "Streaming at the broker's pace"). The store is cached, so the open batch, rewritten at every
 * input, reaches RocksDB and the changelog once per commit (and once when it is full), under
 * exactly-once in the same Kafka transaction as the offsets of the inputs it holds.
 *
 * <p>Bytes: kind {@value #KIND} (a single input's first byte is 0 or 1, {@link EngineInput}), the
 * number of inputs (4 bytes, big-endian), then per input its length (4 bytes) and its {@link
 * EngineInput} bytes. An entry holds at most {@value #MAX_INPUTS} inputs: a rebuild that starts at
 * input {@code i} reads from {@code i - MAX_INPUTS + 1} on, so this bound must never grow without
 * that look-back growing with it. Entries written one per input (before batches) are read alike.
 */
final class InputBatch {
  static final byte KIND = 2;
  /** Most inputs per entry (the look-back of a rebuild; see the class comment). */
  static final int MAX_INPUTS = 32;
  /**
   * Bytes after which a batch takes no more inputs, so that the changelog record stays far below a
   * producer request; an input larger than this is an entry of its own, as it was before batches.
   */
  static final int MAX_BYTES = 64 * 1024;
  private static final int HEADER = 5;

  private final long first;
  private int count;
  private byte[] buf = new byte[1024];
  private int size = HEADER;

  InputBatch(final long first) {
    this.first = first;
  }

  /** The index of the batch's first input: its key. */
  long first() {
    return first;
  }

  /** The index after its last input. */
  long end() {
    return first + count;
  }

  /** Whether an input of {@code bytes} bytes may join (an empty batch takes any). */
  boolean fits(final int bytes) {
    return count == 0 || count < MAX_INPUTS && size + 4 + bytes <= MAX_BYTES;
  }

  /** Appends an arrival whose event is {@code avroBody} (the {@link EngineInput#arrival} bytes). */
  void addArrival(final long streamTimeMicros, final byte[] avroBody) {
    final int n = 9 + avroBody.length;
    grow(4 + n);
    ByteBuffer.wrap(buf, size, 4 + n).putInt(n).put(EngineInput.ARRIVAL).putLong(streamTimeMicros).put(avroBody);
    size += 4 + n;
    count++;
  }

  /** Appends an input's {@link EngineInput} bytes. */
  void add(final byte[] input) {
    grow(4 + input.length);
    ByteBuffer.wrap(buf, size, 4 + input.length).putInt(input.length).put(input);
    size += 4 + input.length;
    count++;
  }

  /** The entry's bytes now (a copy: the store keeps it while the batch grows). */
  byte[] bytes() {
    final byte[] out = Arrays.copyOf(buf, size);
    ByteBuffer.wrap(out).put(KIND).putInt(count);
    return out;
  }

  private void grow(final int extra) {
    if (size + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
    }
  }

  /** Receives the inputs of a stored entry. */
  interface InputVisitor {
    void input(long index, byte[] bytes, int offset, int length);
  }

  /** Visits the inputs of the entry stored under {@code key}: a batch, or one input (before batches). */
  static void forEach(final long key, final byte[] stored, final InputVisitor visitor) {
    if (stored[0] != KIND) {
      visitor.input(key, stored, 0, stored.length);
      return;
    }
    final ByteBuffer b = ByteBuffer.wrap(stored);
    b.position(1);
    final int n = b.getInt();
    for (int i = 0; i < n; i++) {
      final int length = b.getInt();
      visitor.input(key + i, stored, b.position(), length);
      b.position(b.position() + length);
    }
  }

  /** How many inputs the entry stored under a key holds. */
  static int count(final byte[] stored) {
    return stored[0] != KIND ? 1 : ByteBuffer.wrap(stored, 1, 4).getInt();
  }
}
