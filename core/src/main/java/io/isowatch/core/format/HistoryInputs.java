package io.isowatch.core.format;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

/** Opens history bytes for reading: gzip transparently, UTF-8 text, byte-order mark skipped. */
final class HistoryInputs {
  /** Bytes looked at to detect a format. */
  static final int SNIFF_BYTES = 1 << 16;
  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;
  private static final char BYTE_ORDER_MARK = '\uFEFF';

  private HistoryInputs() {}

  /** A buffered stream of the history's bytes, gunzipped when they start with the gzip magic. */
  static BufferedInputStream plain(final InputStream in) throws IOException {
    final BufferedInputStream buffered = new BufferedInputStream(in, SNIFF_BYTES);
    buffered.mark(2);
    final int b1 = buffered.read();
    final int b2 = buffered.read();
    buffered.reset();
    if (b1 == GZIP_MAGIC_1 && b2 == GZIP_MAGIC_2) {
      return new BufferedInputStream(new GZIPInputStream(buffered, SNIFF_BYTES), SNIFF_BYTES);
    }
    return buffered;
  }

  /** The first bytes of {@code in} as text, leaving the stream where it was. */
  static String prefix(final BufferedInputStream in) throws IOException {
    in.mark(SNIFF_BYTES);
    final byte[] head = in.readNBytes(SNIFF_BYTES);
    in.reset();
    // A multi-byte character cut at the end decodes as a replacement character: harmless here.
    final String text = new String(head, StandardCharsets.UTF_8);
    return !text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text;
  }

  /** UTF-8 text of {@code in}, without a leading byte-order mark. */
  static BufferedReader utf8(final InputStream in) throws IOException {
    final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    reader.mark(1);
    if (reader.read() != BYTE_ORDER_MARK) {
      reader.reset();
    }
    return reader;
  }
}
