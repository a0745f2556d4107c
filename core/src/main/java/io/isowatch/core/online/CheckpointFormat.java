package io.isowatch.core.online;

/**
 * The frame of a checkpoint (docs/segmentation.md, "Checkpoints"): a fixed header, a body of
 * varint-encoded sections, a CRC-32 of everything before it.
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "IWCK"
 *      4     4  format version (2; 1 is still read)
 *      8     4  total length in bytes, checksum included
 *     12     8  nanos: the engine's time spent so far
 *     20     8  the summary's nanos spent in cuts
 *     28     8  the summary's nanos spent in the latest cut
 *     36     …  body
 *  len-4     4  CRC-32 of bytes 0 .. len-5
 * </pre>
 *
 * The timings sit at a fixed place so that two checkpoints of equal states can be compared with
 * them (and the checksum) left out: they are the only fields that depend on the machine.
 */
final class CheckpointFormat {
  static final int MAGIC = 0x4957434B;
  /** Scalable filters of retired versions (a series of stages each). */
  static final int VERSION = 2;
  /** Fixed-size filters of retired versions; still read (a restore takes them over as first stages). */
  static final int VERSION_FIXED_FILTERS = 1;
  static final int TIMINGS_OFFSET = 12;
  static final int HEADER = 36;
  static final int CHECKSUM = 4;

  private CheckpointFormat() {}
}
