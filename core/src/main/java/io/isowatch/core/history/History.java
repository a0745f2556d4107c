package io.isowatch.core.history;

import java.util.ArrayList;
import java.util.List;

/**
 * A recorded history: transactions in source order. Session order is given by {@link
 * Transaction#seq()} where present, and by source order within a session otherwise.
 *
 * <p>The implicit initial transaction (writing the initial value to every key) is not listed; the
 * checker adds it. Transaction ids must be unique; readers reject duplicates.
 */
public record History(List<Transaction> transactions) {
  public History {
    transactions = List.copyOf(transactions);
  }

  public int size() {
    return transactions.size();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Accumulates transactions in source order. */
  public static final class Builder {
    private final List<Transaction> txns = new ArrayList<>();

    public Builder add(final Transaction t) {
      txns.add(t);
      return this;
    }

    public int size() {
      return txns.size();
    }

    public History build() {
      return new History(txns);
    }
  }
}
