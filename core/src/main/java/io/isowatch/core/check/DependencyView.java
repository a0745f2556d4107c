package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;

/**
 * What classifying and explaining an anomaly reads about the checked history: transactions, keys,
 * versions and dependency edges by dense integer id. The engine's state implements it ({@code
 * io.isowatch.core.online}), and so does the batch checker kept in test scope as a differential
 * oracle, so that both name and explain anomalies with the same code ({@link AnomalyFactory}).
 *
 * <p>Ids: transaction {@link #INIT} is the implicit initial transaction; a version is one written
 * (key, value) pair or a key's initial value; an edge is one SO, WR, WW or RW dependency (real-time
 * order is never an edge here: it is read off the transactions' times).
 */
public interface DependencyView {
  /** Id of the implicit initial transaction, which writes the initial value to every key. */
  int INIT = 0;

  /** The transaction with this id; never called for {@link #INIT}. */
  Transaction txn(int t);

  /** The id a person finds in the input; "init" for the initial transaction. */
  default String txnId(final int t) {
    return t == INIT ? "init" : txn(t).id();
  }

  String keyName(int key);

  /** The value the initial transaction writes to every key; null when keys start absent. */
  Long initialValue();

  /** The levels requested; anomalies show these and SSER, SER, SI ({@link Level#shown}). */
  default java.util.Set<Level> requestedLevels() {
    return Level.CLASSIC;
  }

  int versionKey(int version);

  /** The transaction that wrote the version ({@link #INIT} for an initial value). */
  int versionWriter(int version);

  /** The version's value; null only for the initial value of keys that start absent. */
  Long versionValue(int version);

  EdgeKind edgeKind(int edge);

  /** The version a WR, WW or RW edge is about (see {@link Edge}); -1 for SO. */
  int edgeVersion(int edge);

  /** The key of a WR, WW or RW edge; -1 for SO. */
  default int edgeKey(final int edge) {
    final int v = edgeVersion(edge);
    return v < 0 ? -1 : versionKey(v);
  }
}
