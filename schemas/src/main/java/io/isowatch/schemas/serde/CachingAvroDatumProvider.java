package io.isowatch.schemas.serde;

import io.apicurio.registry.serde.avro.DefaultAvroDatumProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;

/**
 * Apicurio's default datum provider with one {@link DatumReader} per writer schema instead of one
 * per record. Apicurio's deserializer asks its provider for a new reader for every record, and a
 * new Avro reader resolves the writer schema against the reader schema (a deep schema comparison)
 * before it reads: in the streaming checker's profile that resolution was about a quarter of the
 * stream thread's time. A reader resolves once and is reusable for every record of its writer
 * schema (Avro's readers hold no per-record state); the resolver hands out the same {@link Schema}
 * instance for a schema id, so the cache holds one entry per schema seen. Plugged in through
 * Apicurio's own extension point ({@code apicurio.registry.avro-datum-provider}); the wire format
 * and the registry look-ups stay Apicurio's.
 *
 * @param <T> the decoded type
 */
public final class CachingAvroDatumProvider<T> extends DefaultAvroDatumProvider<T> {
  /** Bounds the cache should schema instances ever not be shared: then it is cleared, not grown. */
  private static final int MAX_READERS = 1_000;

  private final Map<Schema, DatumReader<T>> readers = new ConcurrentHashMap<>();
  // The schema instance of the last call and its reader, compared by identity first. The map's
  // key is the first instance seen of a schema; when the resolver later hands out another, equal
  // instance (it did: the first look-up's and its cache's differ), every map look-up compared
  // the two schemas deeply, up to 6% of the stream thread in the streaming profile.
  private volatile Last<T> last;

  private record Last<T>(Schema schema, DatumReader<T> reader) {}

  @Override
  public DatumReader<T> createDatumReader(final Schema writerSchema) {
    final Last<T> l = last;
    if (l != null && l.schema() == writerSchema) {
      return l.reader();
    }
    DatumReader<T> reader = readers.get(writerSchema);
    if (reader == null) {
      if (readers.size() >= MAX_READERS) {
        readers.clear();
      }
      reader = super.createDatumReader(writerSchema);
      readers.put(writerSchema, reader);
    }
    last = new Last<>(writerSchema, reader);
    return reader;
  }
}
