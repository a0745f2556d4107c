package io.isowatch.core.online;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the body of checkpoint formats 1 and 2 (the hand-written codec written by the
 * {@code CheckpointOutput} of older releases, now in test scope), refusing anything out of range with a {@link
 * CheckpointFormatException}: a count larger than the bytes left (so corrupt input never makes
 * a huge allocation), an id or index beyond its table, a varint longer than ten bytes, invalid
 * UTF-8, or the end of the input.
 */
final class CheckpointInput {
  private final DataInputStream in;
  private final List<String> dictionary = new ArrayList<>();

  CheckpointInput(final byte[] bytes, final int offset, final int length) {
    this.in = new DataInputStream(new ByteArrayInputStream(bytes, offset, length));
  }

  int fixedInt() {
    try {
      return in.readInt();
    } catch (final IOException e) {
      throw truncated(e);
    }
  }

  long fixedLong() {
    try {
      return in.readLong();
    } catch (final IOException e) {
      throw truncated(e);
    }
  }

  boolean bool() {
    final int b = rawByte();
    if (b > 1) {
      throw new CheckpointFormatException("corrupt checkpoint: a boolean is " + b);
    }
    return b == 1;
  }

  int rawByte() {
    try {
      return in.readUnsignedByte();
    } catch (final IOException e) {
      throw truncated(e);
    }
  }

  /** A non-negative long. */
  long unsigned() {
    final long v = varint();
    if (v < 0) {
      throw new CheckpointFormatException("corrupt checkpoint: a count is out of range");
    }
    return v;
  }

  /** A non-negative int below {@code bound}; {@code what} names it in the message. */
  int index(final long bound, final String what) {
    final long v = unsigned();
    if (v >= bound) {
      throw new CheckpointFormatException("corrupt checkpoint: " + what + " " + v + " is out of range (< " + bound
          + ")");
    }
    return (int) v;
  }

  /** The number of elements that follow, each taking at least {@code minBytes} bytes. */
  int count(final int minBytes, final String what) {
    final long n = unsigned();
    if (n > Integer.MAX_VALUE - 8 || n * minBytes > remaining()) {
      throw new CheckpointFormatException("corrupt or truncated checkpoint: " + n + " " + what
          + " announced, only " + remaining() + " bytes left");
    }
    return (int) n;
  }

  long signed() {
    final long v = varint();
    return (v >>> 1) ^ -(v & 1);
  }

  Long nullableSigned() {
    return bool() ? signed() : null;
  }

  String string() {
    final int n = count(1, "string bytes");
    final byte[] utf8 = new byte[n];
    try {
      in.readFully(utf8);
    } catch (final IOException e) {
      throw truncated(e);
    }
    return utf8(utf8);
  }

  /** Strict UTF-8: invalid bytes are a {@link CheckpointFormatException}, not replaced. */
  static String utf8(final byte[] utf8) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(utf8)).toString();
    } catch (final CharacterCodingException e) {
      throw new CheckpointFormatException("corrupt checkpoint: a string is not UTF-8", e);
    }
  }

  String nullableString() {
    return bool() ? string() : null;
  }

  /** A dictionary string (see {@link CheckpointOutput#name}). */
  String name() {
    final int i = index(dictionary.size() + 1L, "name index");
    if (i < dictionary.size()) {
      return dictionary.get(i);
    }
    final String s = string();
    dictionary.add(s);
    return s;
  }

  String nullableName() {
    return bool() ? name() : null;
  }

  int remaining() {
    try {
      return in.available();
    } catch (final IOException e) {
      throw truncated(e);
    }
  }

  private long varint() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      final int b = rawByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new CheckpointFormatException("corrupt checkpoint: a varint is longer than 10 bytes");
  }

  private static CheckpointFormatException truncated(final IOException e) {
    return new CheckpointFormatException(e instanceof EOFException ? "truncated checkpoint: the data ends early"
        : "unreadable checkpoint: " + e.getMessage(), e);
  }
}
