package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.function.Consumer;

/**
 * Work on a JSONL history split over two threads while it is read ({@link
 * HistoryIO#read(java.io.InputStream, HistoryFormat, ReadingSplit)}): the reader thread, which also
 * parses, runs {@link #read} on each transaction and {@link #end} on the whole history, and hands
 * over what they give; the caller's thread runs {@link #take} on each thing handed over, in the
 * order given. What {@code read} and {@code end} write is visible to {@code take} for what they
 * gave after it, and to the caller once the read returns. The other formats call nothing.
 */
public interface ReadingSplit {
  /** Reader thread: a transaction, in file order, once its id is found new. */
  void read(Transaction t, JsonlReadAhead.Out out) throws InvalidHistoryException;

  /** Reader thread: the whole history, once read (not called when reading failed). */
  void end(History history, JsonlReadAhead.Out out) throws InvalidHistoryException;

  /** Caller's thread: what {@link #read} and {@link #end} gave, in the order given. */
  void take(Transaction t, long tag);

  /** Gives {@code each} every transaction, in file order, on the caller's thread. */
  static ReadingSplit each(final Consumer<Transaction> each) {
    return new ReadingSplit() {
      @Override
      public void read(final Transaction t, final JsonlReadAhead.Out out) {
        out.give(t, 0);
      }

      @Override
      public void end(final History history, final JsonlReadAhead.Out out) {}

      @Override
      public void take(final Transaction t, final long tag) {
        each.accept(t);
      }
    };
  }
}
