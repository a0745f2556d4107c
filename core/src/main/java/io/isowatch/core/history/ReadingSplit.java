package io.isowatch.core.history;

import java.util.function.Consumer;

/**
 * Work on a JSONL, Elle, Aion or text history split over two threads while it is read ({@code
 * io.isowatch.core.format.HistoryIO.read(InputStream, HistoryFormat, ReadingSplit)}): the reader thread, which also
 * parses, runs {@link #read} on each transaction and {@link #end} on the whole history, and hands
 * over what they give; the caller's thread runs {@link #take} on each thing handed over, in the
 * order given.
 *
 * <p>It lives with the history, not with the formats, so that the engine's side ({@code
 * io.isowatch.core.online.InOrderFeed}) implements it without depending on the file formats
 * (CoreLayeringTest). What {@code read} and {@code end} write is visible to {@code take} for what they
 * gave after it, and to the caller once the read returns. A text history gives each transaction once its
 * lines end, and {@code end} gets the history the text reader builds (a transaction whose lines are not
 * consecutive is then another object than the one given).
 */
public interface ReadingSplit {
  /** Reader thread: a transaction, in file order, once its id is found new. */
  void read(Transaction t, Sink out);

  /** Reader thread: the whole history, once read (not called when reading failed). */
  void end(History history, Sink out);

  /** Caller's thread: what {@link #read} and {@link #end} gave, in the order given. */
  void take(Transaction t, long tag);

  /** Where the reader thread gives what the caller's thread is to take, with a tag. */
  @FunctionalInterface
  interface Sink {
    void give(Transaction t, long tag);
  }

  /** Gives {@code each} every transaction, in file order, on the caller's thread. */
  static ReadingSplit each(final Consumer<Transaction> each) {
    return new ReadingSplit() {
      @Override
      public void read(final Transaction t, final Sink out) {
        out.give(t, 0);
      }

      @Override
      public void end(final History history, final Sink out) {}

      @Override
      public void take(final Transaction t, final long tag) {
        each.accept(t);
      }
    };
  }
}
