package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro binary encoding of a checkpoint body ({@code Checkpoint.avsc}), written by direct {@link
 * BinaryEncoder} calls in the schema's field order: no record objects are built. Strings that
 * repeat go through the schema's {@code names} dictionary: {@link #name} writes the index and
 * {@link #body} puts the dictionary in front, so the body is the dictionary's encoding followed by
 * the encoding of the other fields (Avro's encoding of a record is the concatenation of its fields').
 * {@link CheckpointDecoder} reads the same.
 */
final class CheckpointEncoder {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
  private final BinaryEncoder out = EncoderFactory.get().binaryEncoder(bytes, null);
  private final Map<String, Integer> dictionary = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  void longValue(final long v) {
    try {
      out.writeLong(v);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void intValue(final int v) {
    try {
      out.writeInt(v);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void bool(final boolean v) {
    try {
      out.writeBoolean(v);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void string(final String s) {
    try {
      out.writeString(s);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void bytes(final byte[] b) {
    try {
      out.writeBytes(b);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The branch of a union or the symbol of an enum: both are an int in Avro's encoding. */
  void index(final int i) {
    intValue(i);
  }

  /** A {@code ["null", "long"]}. */
  void nullableLong(final Long v) {
    index(v == null ? 0 : 1);
    if (v != null) {
      longValue(v);
    }
  }

  /** A string of the dictionary: its index in {@code names}. */
  void name(final String s) {
    Integer i = dictionary.get(s);
    if (i == null) {
      i = names.size();
      dictionary.put(s, i);
      names.add(s);
    }
    intValue(i);
  }

  /** A {@code ["null", "int"]} index into {@code names}. */
  void nullableName(final String s) {
    index(s == null ? 0 : 1);
    if (s != null) {
      name(s);
    }
  }

  /** An array of {@code Level} symbols, in their code order. */
  void levels(final Set<Level> levels) {
    final List<Integer> codes = new ArrayList<>(levels.size());
    for (final Level l : levels) {
      codes.add(CheckpointRecords.level(l));
    }
    codes.sort(null);
    array(codes, this::index);
  }

  /** An array: one block of all the items, each written by {@code each}, then the end marker. */
  <T> void array(final Collection<T> items, final Consumer<T> each) {
    arrayStart(items.size());
    items.forEach(each);
    arrayEnd();
  }

  /** The start of an array of {@code n} items in one block; the caller writes them, then {@link #arrayEnd}. */
  void arrayStart(final long n) {
    try {
      out.writeArrayStart();
      out.setItemCount(n);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void arrayEnd() {
    try {
      out.writeArrayEnd();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The whole body: the {@code names} array, then every field written so far. */
  byte[] body() {
    try {
      out.flush();
      final ByteArrayOutputStream head = new ByteArrayOutputStream(16 * names.size() + 16);
      final BinaryEncoder h = EncoderFactory.get().binaryEncoder(head, null);
      h.writeArrayStart();
      h.setItemCount(names.size());
      for (final String s : names) {
        h.writeString(s);
      }
      h.writeArrayEnd();
      h.flush();
      bytes.writeTo(head);
      return head.toByteArray();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
