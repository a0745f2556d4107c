package io.isowatch.streams.processor;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A store key scoped to one tenant: the tenant, then either an index or a string. The bytes are the
 * tenant's UTF-8 length (4 bytes, big-endian), its UTF-8, then the index (8 bytes, big-endian) or
 * the string's UTF-8. The length prefix makes one tenant's keys a contiguous range that no other
 * tenant's keys can fall into (so {@link #prefix} works with {@code prefixScan}), and big-endian
 * non-negative indexes sort numerically.
 *
 * @param tenant the tenant
 * @param index an arrival index (&gt;= 0), or -1 when {@code item} is used
 * @param item a string item (e.g. an anomaly id), or null when {@code index} is used
 */
public record TenantKey(String tenant, long index, String item) {
  public TenantKey {
    Objects.requireNonNull(tenant, "tenant");
    if ((item == null) == (index < 0)) {
      throw new IllegalArgumentException("exactly one of index >= 0 and item is needed");
    }
  }

  public static TenantKey ofIndex(final String tenant, final long index) {
    return new TenantKey(tenant, index, null);
  }

  public static TenantKey ofItem(final String tenant, final String item) {
    return new TenantKey(tenant, -1, item);
  }

  /** The serde of these keys. */
  public static Serde<TenantKey> serde() {
    return Serdes.serdeFrom(new KeySerializer(), new KeyDeserializer());
  }

  /** Serializes a tenant to the prefix all its keys start with, for {@code prefixScan}. */
  public static Serializer<String> prefix() {
    return (topic, tenant) -> tenantBytes(tenant, 0).array();
  }

  private static ByteBuffer tenantBytes(final String tenant, final int extra) {
    final byte[] t = tenant.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + t.length + extra).putInt(t.length).put(t);
  }

  private static final class KeySerializer implements Serializer<TenantKey> {
    @Override
    public byte[] serialize(final String topic, final TenantKey k) {
      if (k == null) {
        return null;
      }
      if (k.item() == null) {
        return tenantBytes(k.tenant(), 8).putLong(k.index()).array();
      }
      final byte[] item = k.item().getBytes(StandardCharsets.UTF_8);
      return tenantBytes(k.tenant(), item.length).put(item).array();
    }
  }

  /** Reads keys back; an index key is told from an item key by its length (indexes are 8 bytes). */
  private static final class KeyDeserializer implements Deserializer<TenantKey> {
    @Override
    public TenantKey deserialize(final String topic, final byte[] data) {
      if (data == null) {
        return null;
      }
      final ByteBuffer b = ByteBuffer.wrap(data);
      final byte[] t = new byte[b.getInt()];
      b.get(t);
      final String tenant = new String(t, StandardCharsets.UTF_8);
      final byte[] rest = new byte[b.remaining()];
      b.get(rest);
      // Ambiguity between an 8-byte item and an index cannot arise within one store: each store
      // uses one kind. Index keys are read back only from tenant-transactions.
      return rest.length == 8 && isIndexBytes(rest)
          ? ofIndex(tenant, ByteBuffer.wrap(rest).getLong())
          : ofItem(tenant, new String(rest, StandardCharsets.UTF_8));
    }

    private static boolean isIndexBytes(final byte[] rest) {
      // Indexes are non-negative and far below 2^56, so their first byte is 0; UTF-8 text never
      // contains a zero byte unless it contains NUL, which anomaly ids (hex) never do.
      return rest[0] == 0;
    }
  }
}
