package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads what {@link CheckpointEncoder} writes, by direct {@link BinaryDecoder} calls in the
 * schema's field order, refusing anything out of range with a {@link CheckpointFormatException}:
 * an array, string or bytes longer than the bytes left (so corrupt input never makes a huge
 * allocation), a union branch or enum symbol the schema does not have, an index beyond {@code
 * names}, invalid UTF-8, or the end of the input.
 */
final class CheckpointDecoder {
  /** Reads one item of an array. */
  @FunctionalInterface
  interface Item {
    void read();
  }

  private final BinaryDecoder in;
  private final InputStream source;
  private final List<String> names = new ArrayList<>();

  CheckpointDecoder(final byte[] bytes, final int offset, final int length) {
    this.in = DecoderFactory.get().binaryDecoder(bytes, offset, length, null);
    this.source = in.inputStream();
  }

  /** The {@code names} dictionary, the body's first field. */
  void readNames() {
    array(1, "names", () -> names.add(string()));
  }

  long longValue() {
    try {
      return in.readLong();
    } catch (final IOException e) {
      throw failed(e);
    }
  }

  int intValue() {
    try {
      return in.readInt();
    } catch (final IOException e) {
      throw failed(e);
    }
  }

  /** A non-negative int below {@code bound}; {@code what} names it in the message. */
  int index(final long bound, final String what) {
    final int v = intValue();
    if (v < 0 || v >= bound) {
      throw new CheckpointFormatException("corrupt checkpoint: " + what + " " + v + " is out of range (< " + bound
          + ")");
    }
    return v;
  }

  boolean bool() {
    try {
      final int b = source.read();
      if (b < 0) {
        throw new EOFException();
      }
      if (b > 1) {
        throw new CheckpointFormatException("corrupt checkpoint: a boolean is " + b);
      }
      return b == 1;
    } catch (final IOException e) {
      throw failed(e);
    }
  }

  /** The branch of a {@code ["null", T]}: whether T follows. */
  boolean present() {
    return index(2, "union branch") == 1;
  }

  Long nullableLong() {
    return present() ? longValue() : null;
  }

  String string() {
    return CheckpointInput.utf8(raw("string bytes"));
  }

  byte[] bytes() {
    return raw("bytes");
  }

  /** A string of the dictionary. */
  String name() {
    return names.get(index(names.size(), "name index"));
  }

  String nullableName() {
    return present() ? name() : null;
  }

  EnumSet<Level> levels() {
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    array(1, "levels", () -> out.add(CheckpointRecords.level(intValue())));
    return out;
  }

  /**
   * An array, block by block, each item read by {@code item}; every item takes at least {@code
   * minBytes} bytes, which bounds a block's count by the bytes left. Returns the number of items.
   */
  long array(final int minBytes, final String what, final Item item) {
    long total = 0;
    try {
      for (long n = in.readArrayStart(); n != 0; n = in.arrayNext()) {
        if (n < 0 || n * minBytes > remaining()) {
          throw new CheckpointFormatException("corrupt or truncated checkpoint: " + n + " " + what
              + " announced, only " + remaining() + " bytes left");
        }
        for (long i = 0; i < n; i++) {
          item.read();
        }
        total += n;
      }
      return total;
    } catch (final IOException e) {
      throw failed(e);
    }
  }

  int remaining() {
    try {
      return source.available();
    } catch (final IOException e) {
      throw failed(e);
    }
  }

  private byte[] raw(final String what) {
    final int n = intValue();
    if (n < 0 || n > remaining()) {
      throw new CheckpointFormatException("corrupt or truncated checkpoint: " + n + " " + what + " announced, only "
          + remaining() + " bytes left");
    }
    final byte[] b = new byte[n];
    try {
      in.readFixed(b);
    } catch (final IOException e) {
      throw failed(e);
    }
    return b;
  }

  private static CheckpointFormatException failed(final IOException e) {
    return new CheckpointFormatException(e instanceof EOFException ? "truncated checkpoint: the data ends early"
        : "corrupt checkpoint: " + e.getMessage(), e);
  }
}
