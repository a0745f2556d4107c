package io.isowatch.streams.processor;

import io.isowatch.streams.IsoWatchStreamsConfig;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The end of a replayed input ({@code replay.end.offsets}): per input partition, the offset of the
 * last record to replay. {@code isowatch replay} computes it before starting the topology; the
 * check processor flushes the tenants of a partition once it has processed that partition's last
 * record. The text form is {@code partition:offset[,partition:offset...]}, empty for none.
 *
 * @param lastOffsets partition to offset of its last record to replay
 */
public record ReplayEnd(Map<Integer, Long> lastOffsets) {
  public ReplayEnd {
    lastOffsets = Map.copyOf(lastOffsets);
  }

  /** No end: a live checker. */
  public static ReplayEnd none() {
    return new ReplayEnd(Map.of());
  }

  /**
   * Parses the text form.
   *
   * @throws IllegalArgumentException when it is not {@code partition:offset} pairs of non-negative
   *     numbers, or names a partition twice
   */
  public static ReplayEnd parse(final String text) {
    final Map<Integer, Long> offsets = new TreeMap<>();
    if (text.isBlank()) {
      return new ReplayEnd(offsets);
    }
    for (final String pair : text.split(",")) {
      final String[] parts = pair.trim().split(":");
      if (parts.length != 2) {
        throw new IllegalArgumentException("expected partition:offset, got '" + pair.trim() + "'");
      }
      final int partition;
      final long offset;
      try {
        partition = Integer.parseInt(parts[0].trim());
        offset = Long.parseLong(parts[1].trim());
      } catch (final NumberFormatException e) {
        throw new IllegalArgumentException("expected numbers in partition:offset, got '" + pair.trim() + "'");
      }
      if (partition < 0 || offset < 0) {
        throw new IllegalArgumentException("partition and offset must be >= 0, got '" + pair.trim() + "'");
      }
      if (offsets.put(partition, offset) != null) {
        throw new IllegalArgumentException("partition " + partition + " is given twice");
      }
    }
    return new ReplayEnd(offsets);
  }

  /** The end configured in a processor's app configs ({@link IsoWatchStreamsConfig#streamsProperties}). */
  public static ReplayEnd from(final Map<String, Object> appConfigs) {
    final Object text = appConfigs.get(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG);
    return text == null ? none() : parse(text.toString());
  }

  /** True when {@code offset} is the last record to replay of {@code partition}. */
  public boolean isLast(final int partition, final long offset) {
    final Long last = lastOffsets.get(partition);
    return last != null && last == offset;
  }

  public boolean isEmpty() {
    return lastOffsets.isEmpty();
  }

  /** The text form, partitions in order. */
  @Override
  public String toString() {
    return new TreeMap<>(lastOffsets).entrySet().stream()
        .map(e -> e.getKey() + ":" + e.getValue())
        .collect(Collectors.joining(","));
  }
}
