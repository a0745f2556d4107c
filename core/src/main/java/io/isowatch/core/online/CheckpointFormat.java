package io.isowatch.core.online;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import org.apache.avro.Schema;

/**
 * The frame of a checkpoint (docs/segmentation.md, "Checkpoints"): a fixed header, a body, a
 * CRC-32 of everything before it.
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "IWCK"
 *      4     4  format version (6; 1, 2, 3, 4 and 5 are still read)
 *      8     4  total length in bytes, checksum included
 *     12     8  nanos: the engine's time spent so far
 *     20     8  the summary's nanos spent in cuts
 *     28     8  the summary's nanos spent in the latest cut
 *     36     …  body
 *  len-4     4  CRC-32 of bytes 0 .. len-5
 * </pre>
 *
 * The body of format 6 is the Avro binary encoding of {@link #SCHEMA} ({@code Checkpoint.avsc}, a
 * resource of this package): a stock {@code GenericDatumReader} with that schema decodes it. Format 5
 * is the same schema without MIXED at the end of its {@code Level} enum (so a format-5 body is read
 * as a format-6 body that holds no MIXED). Format 4
 * is the same schema without {@code thinAirReads} (the retractable ThinAirReads, which default to
 * null) and with only the three levels SSER, SER and SI in its {@code Level} enum (format 5 appends
 * the weak levels, so a format-4 body is read as a format-5 body that holds no weak level); format 3
 * is format 4 without the summary's {@code runs} (the exact run-sets of retired versions,
 * which default to null); formats 1 and 2 have a hand-written body of varint sections ({@link
 * CheckpointReader}).
 *
 * <p>The timings sit at a fixed place so that two checkpoints of equal states can be compared with
 * them (and the checksum) left out: they are the only fields that depend on the machine.
 */
final class CheckpointFormat {
  static final int MAGIC = 0x4957434B;
  /** The Avro body of {@code Checkpoint.avsc}: every level, the weak ones and MIXED included. */
  static final int VERSION = 6;
  /** The Avro body with the retractable ThinAirReads and the weak levels, without MIXED; still read. */
  static final int VERSION_AVRO_THIN_AIR = 5;
  /** The Avro body with the run-sets, without the retractable ThinAirReads, SSER, SER and SI only; still read. */
  static final int VERSION_AVRO_RUNS = 4;
  /** The Avro body without run-sets (every retired version in the filters); still read. */
  static final int VERSION_AVRO_FILTERS = 3;
  /** Scalable filters of retired versions in the hand-written varint codec; still read. */
  static final int VERSION_VARINT = 2;
  /** Fixed-size filters of retired versions; still read (a restore takes them over as first stages). */
  static final int VERSION_FIXED_FILTERS = 1;
  static final int TIMINGS_OFFSET = 12;
  static final int HEADER = 36;
  static final int CHECKSUM = 4;

  /** The writer's schema of format {@link #VERSION}. */
  static final Schema SCHEMA = load("Checkpoint.avsc");

  private CheckpointFormat() {}

  /** Header, body, checksum. */
  static byte[] frame(final int version, final byte[] body, final long nanos, final HorizonSummary h) {
    final int length = HEADER + body.length + CHECKSUM;
    final ByteBuffer b = ByteBuffer.allocate(length);
    b.putInt(MAGIC).putInt(version).putInt(length);
    b.putLong(nanos).putLong(h.cutNanos).putLong(h.lastCutNanos);
    b.put(body);
    final CRC32 crc = new CRC32();
    crc.update(b.array(), 0, length - CHECKSUM);
    b.putInt((int) crc.getValue());
    return b.array();
  }

  private static Schema load(final String resource) {
    try (InputStream in = CheckpointFormat.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource + " next to " + CheckpointFormat.class);
      }
      return new Schema.Parser().parse(in);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
