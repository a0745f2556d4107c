package io.isowatch.core.online;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The primitive encodings of a checkpoint (docs/segmentation.md, "Checkpoints"), over a {@link
 * DataOutputStream}: unsigned LEB128 varints for counts and ids, zig-zag varints for signed values,
 * strings as a varint length and UTF-8 bytes (no 64 KiB limit, unlike {@code writeUTF}), and a
 * dictionary for strings that repeat (key, session, tenant names, kinds): the first occurrence is
 * written as the next index followed by the string, later ones as the index alone.
 * {@link CheckpointInput} reads the same.
 */
final class CheckpointOutput {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
  private final DataOutputStream out = new DataOutputStream(bytes);
  private final Map<String, Integer> dictionary = new HashMap<>();

  void fixedInt(final int v) {
    try {
      out.writeInt(v);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void fixedLong(final long v) {
    try {
      out.writeLong(v);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void bool(final boolean v) {
    rawByte(v ? 1 : 0);
  }

  void rawByte(final int v) {
    try {
      out.writeByte(v);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A non-negative value (count, id, position). */
  void unsigned(final long v) {
    if (v < 0) {
      throw new IllegalArgumentException("negative value where a count or id is expected: " + v);
    }
    varint(v);
  }

  void signed(final long v) {
    varint((v << 1) ^ (v >> 63));
  }

  void nullableSigned(final Long v) {
    bool(v != null);
    if (v != null) {
      signed(v);
    }
  }

  void string(final String s) {
    final byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    unsigned(utf8.length);
    try {
      out.write(utf8);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void nullableString(final String s) {
    bool(s != null);
    if (s != null) {
      string(s);
    }
  }

  /** A string likely to repeat: its dictionary index, preceded by the string the first time. */
  void name(final String s) {
    final Integer known = dictionary.get(s);
    if (known != null) {
      unsigned(known);
      return;
    }
    final int index = dictionary.size();
    dictionary.put(s, index);
    unsigned(index);
    string(s);
  }

  void nullableName(final String s) {
    bool(s != null);
    if (s != null) {
      name(s);
    }
  }

  int size() {
    return out.size();
  }

  byte[] toByteArray() {
    return bytes.toByteArray();
  }

  private void varint(final long v) {
    long rest = v;
    while ((rest & ~0x7FL) != 0) {
      rawByte((int) ((rest & 0x7F) | 0x80));
      rest >>>= 7;
    }
    rawByte((int) rest);
  }
}
