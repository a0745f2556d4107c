package io.isowatch.core.format;

/**
 * What a write kept and what it could not represent. Formats other than JSONL cannot carry
 * everything a {@link io.isowatch.core.history.History} holds; the loss is reported here rather
 * than hidden.
 *
 * @param written transactions written
 * @param droppedAborted aborted transactions left out
 * @param droppedUnknown transactions of unknown outcome left out
 * @param droppedEmpty transactions without operations left out
 * @param timesDiscarded written transactions whose start or end time was not written
 * @param metadataDiscarded written transactions whose tenant or level was not written
 * @param idsRenumbered true when sessions or transaction ids had to be renumbered to fit the format
 */
public record WriteReport(
    int written,
    int droppedAborted,
    int droppedUnknown,
    int droppedEmpty,
    int timesDiscarded,
    int metadataDiscarded,
    boolean idsRenumbered) {

  /** A write that kept everything. */
  public static WriteReport lossless(final int written) {
    return new WriteReport(written, 0, 0, 0, 0, 0, false);
  }

  /** Transactions left out, for any reason. */
  public int dropped() {
    return droppedAborted + droppedUnknown + droppedEmpty;
  }

  /** True when reading the output back yields the same history. */
  public boolean isLossless() {
    return dropped() == 0 && timesDiscarded == 0 && metadataDiscarded == 0 && !idsRenumbered;
  }
}
