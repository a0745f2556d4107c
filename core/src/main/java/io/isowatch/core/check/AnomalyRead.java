package io.isowatch.core.check;

import java.util.Objects;

/**
 * The read a non-cycle anomaly is about (thin-air, G1a, G1b, the internal anomalies, a stale read
 * beyond the horizon): what tells two such anomalies of one transaction apart, e.g. its thin-air
 * reads of x and of y, or two faulty reads of one key after its own write.
 *
 * @param txn id of the reading transaction
 * @param op position of the read in the transaction's ops, from 0
 * @param key the key read
 * @param value the value read; null for a read of an absent key
 */
public record AnomalyRead(String txn, int op, String key, Long value) {
  public AnomalyRead {
    Objects.requireNonNull(txn, "txn");
    Objects.requireNonNull(key, "key");
    if (op < 0) {
      throw new IllegalArgumentException("op must be >= 0: " + op);
    }
  }
}
