package io.isowatch.schemas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The deterministic {@link Anomaly#getAnomalyId() anomaly id}: the same anomaly proven twice (after
 * a restart, or by two checkers) gets the same id, so consumers of {@code isowatch.anomalies.v1}
 * can recognise duplicates.
 *
 * <p>The id is the lower-case hex of the first 16 bytes of SHA-256 over the UTF-8 bytes of {@code
 * tenant NUL type NUL name NUL txn1 NUL txn2 ...}, with the transaction ids sorted and a null name
 * written as the empty string. Sorting makes the id independent of where a cycle is entered. This
 * definition is part of the published contract: changing it is a new topic version.
 */
public final class AnomalyIds {
  private static final int ID_BYTES = 16;
  private static final char SEPARATOR = '\0';

  private AnomalyIds() {}

  /**
   * Computes the id of an anomaly.
   *
   * @param tenant the tenant whose history has the anomaly
   * @param type its Adya class, e.g. {@code G-single}
   * @param name its MTC pattern name, or null when unnamed
   * @param txnIds the ids of the transactions involved, in any order
   * @return 32 lower-case hex characters
   */
  public static String of(
      final String tenant, final String type, final String name, final Collection<String> txnIds) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(type, "type");
    final StringBuilder text = new StringBuilder();
    text.append(tenant).append(SEPARATOR).append(type).append(SEPARATOR);
    text.append(name == null ? "" : name);
    txnIds.stream().sorted().forEach(id -> text.append(SEPARATOR).append(id));
    final byte[] digest = sha256().digest(text.toString().getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest, 0, ID_BYTES);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (final NoSuchAlgorithmException e) {
      // Every Java platform must provide SHA-256 (MessageDigest's Javadoc): this cannot happen.
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
