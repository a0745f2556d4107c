package io.isowatch.schemas;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The deterministic ids of an {@link Anomaly}: the same anomaly proven twice (after a restart, by
 * two checkers, by {@code isowatch check}) gets the same id, so consumers of {@code
 * isowatch.anomalies.v1} can recognise duplicates.
 *
 * <ul>
 *   <li>{@link #unique} ({@code Anomaly.uniqueId}) covers everything that tells two anomalies
 *       apart: tenant, type, name, transactions, the cycle's edges with kind, key and value, and the
 *       read a non-cycle anomaly is about. Two distinct anomalies never share it.
 *   <li>{@link #of} ({@code Anomaly.anomalyId}, the first definition, kept unchanged for existing
 *       consumers) covers only tenant, type, name and transactions: lost updates of one pair of
 *       transactions on two keys, or two thin-air reads of one transaction, share it.
 * </ul>
 *
 * Both definitions are part of the published contract (schemas/README.md, "Anomaly ids"): changing
 * either is a new field or a new topic version.
 */
public final class AnomalyIds {
  private static final int ID_BYTES = 16;
  private static final char SEPARATOR = '\0';
  /** Opens the hashed bytes of {@link #unique}: names the definition, so no other input hashes alike. */
  private static final String UNIQUE_DOMAIN = "isowatch.anomaly.uniqueId.v1";
  private static final int NULL_LENGTH = -1;

  /**
   * One edge of a cycle, as in {@link Edge}.
   *
   * @param kind the edge kind's name: SO, RT, WR, WW or RW
   */
  public record CycleEdge(String from, String to, String kind, String key, Long value) {
    public CycleEdge {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(kind, "kind");
    }
  }

  /**
   * The read a non-cycle anomaly is about, as in {@link AnomalyRead}.
   *
   * @param op its position in the transaction's ops, from 0
   */
  public record ReadOp(String txn, int op, String key, Long value) {
    public ReadOp {
      Objects.requireNonNull(txn, "txn");
      Objects.requireNonNull(key, "key");
    }
  }

  private AnomalyIds() {}

  /**
   * Computes {@code anomalyId}, the first definition: lower-case hex of the first 16 bytes of
   * SHA-256 over the UTF-8 bytes of {@code tenant NUL type NUL name NUL txn1 NUL txn2 ...}, with
   * the transaction ids sorted and a null name written as the empty string. Sorting makes the id
   * independent of where a cycle is entered. Two distinct anomalies of the same transactions share
   * it: deduplicate by {@link #unique} instead.
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
    return hex(sha256().digest(text.toString().getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Computes {@code uniqueId}: lower-case hex of the first 16 bytes of SHA-256 over the bytes
   * below, where a <em>string</em> is its UTF-8 length as a 4-byte big-endian int followed by its
   * UTF-8 bytes (null: the length -1 and no bytes), a <em>number</em> is the string of its decimal
   * digits, and a <em>list</em> is its size as a 4-byte big-endian int followed by its items'
   * bytes, sorted as unsigned byte sequences:
   *
   * <pre>
   * string "isowatch.anomaly.uniqueId.v1", tenant, type, name,
   * list of the transaction ids (each a string),
   * list of the cycle's edges (each: from, to, kind, key, value),
   * list of the read (none, or one: txn, op, key, value)
   * </pre>
   *
   * Sorting makes the id independent of where a cycle is entered and of the order the engine found
   * things in; the length prefixes keep any two different inputs apart (no separator can be forged).
   *
   * @param cycle the cycle's edges in any order; empty for a non-cycle anomaly
   * @param read the read the anomaly is about, or null (cycles)
   * @return 32 lower-case hex characters
   */
  public static String unique(final String tenant, final String type, final String name,
      final Collection<String> txnIds, final Collection<CycleEdge> cycle, final ReadOp read) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(type, "type");
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    string(out, UNIQUE_DOMAIN);
    string(out, tenant);
    string(out, type);
    string(out, name);
    list(out, txnIds.stream().map(AnomalyIds::string).toList());
    list(out, cycle.stream().map(e -> concat(string(e.from()), string(e.to()), string(e.kind()), string(e.key()),
        number(e.value()))).toList());
    list(out, read == null ? List.of() : List.of(concat(string(read.txn()), number((long) read.op()),
        string(read.key()), number(read.value()))));
    return hex(sha256().digest(out.toByteArray()));
  }

  /** {@link #unique} of a published record, from its tenant, type, name, transactions, cycle and read. */
  public static String unique(final Anomaly a) {
    final List<CycleEdge> cycle = a.getCycle().stream()
        .map(e -> new CycleEdge(e.getFrom(), e.getTo(), e.getKind().name(), e.getKey(), e.getValue())).toList();
    final AnomalyRead r = a.getRead();
    return unique(a.getTenant(), a.getType(), a.getName(),
        a.getTransactions().stream().map(AnomalyTransaction::getTxn).toList(), cycle,
        r == null ? null : new ReadOp(r.getTxn(), r.getOp(), r.getKey(), r.getValue()));
  }

  /**
   * The id to deduplicate a record by: its {@code uniqueId}, or its {@code anomalyId} when it has
   * none (a record of a checker older than that field).
   */
  public static String identity(final Anomaly a) {
    return a.getUniqueId() != null ? a.getUniqueId() : a.getAnomalyId();
  }

  private static void list(final ByteArrayOutputStream out, final List<byte[]> items) {
    final List<byte[]> sorted = new ArrayList<>(items);
    sorted.sort(Arrays::compareUnsigned);
    out.writeBytes(ByteBuffer.allocate(4).putInt(sorted.size()).array());
    sorted.forEach(out::writeBytes);
  }

  private static void string(final ByteArrayOutputStream out, final String s) {
    out.writeBytes(string(s));
  }

  private static byte[] string(final String s) {
    if (s == null) {
      return ByteBuffer.allocate(4).putInt(NULL_LENGTH).array();
    }
    final byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + utf8.length).putInt(utf8.length).put(utf8).array();
  }

  private static byte[] number(final Long v) {
    return string(v == null ? null : v.toString());
  }

  private static byte[] concat(final byte[]... parts) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (final byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static String hex(final byte[] digest) {
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
