package io.isowatch.schemas.serde;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A schema registry held in this JVM, for a run whose topics nothing outside the JVM reads: {@code
 * isowatch replay --file}, whose broker is in-process too and is deleted at the end. It stands in
 * for the registry child process (an Apicurio server, ~5 s of CPU to start: docs/benchmarks.md,
 * "replay50k2") and nothing else: the serdes are still Apicurio's ({@link AvroSerdes}, {@link
 * FramedEventSerializer}, {@link TransactionEventDeserializer}), configured as for a remote registry
 * but for their schema resolver ({@link InProcessSchemaResolver}, Apicurio's own extension point,
 * {@code apicurio.registry.schema-resolver}), and the records are the Confluent wire format (magic
 * byte 0, a 4-byte content id, Avro binary) as with the registry child.
 *
 * <p>Its URL, {@code inprocess://NAME}, is a schema registry URL like any other for the
 * configuration ({@code schema.registry.url}); {@link AvroSerdeConfig#serdeProperties} plugs the
 * resolver in for that scheme. Content ids are numbered from 1 per registry in the order of first
 * registration, and equal content (the schema's bytes) gets the same id, as Apicurio does. Thread
 * safe.
 */
public final class InProcessRegistry implements AutoCloseable {
  /** The URL scheme of an in-process registry. */
  public static final String SCHEME = "inprocess";

  private static final Map<String, InProcessRegistry> OPEN = new ConcurrentHashMap<>();

  private final String name;
  private final Map<Content, Long> ids = new ConcurrentHashMap<>();
  private final Map<Long, byte[]> contents = new ConcurrentHashMap<>();

  private InProcessRegistry(final String name) {
    this.name = name;
  }

  /** A new, empty registry under a fresh name; {@link #close} forgets it. */
  public static InProcessRegistry open() {
    final InProcessRegistry registry = new InProcessRegistry("registry-" + UUID.randomUUID());
    OPEN.put(registry.name, registry);
    return registry;
  }

  /** Whether the URL names an in-process registry. */
  public static boolean names(final URI url) {
    return SCHEME.equalsIgnoreCase(url.getScheme());
  }

  /** The open registry the URL names. */
  static InProcessRegistry of(final String url) {
    final URI uri = URI.create(url);
    final InProcessRegistry registry = names(uri) ? OPEN.get(uri.getAuthority()) : null;
    if (registry == null) {
      throw new IllegalStateException("no in-process schema registry is open at " + url);
    }
    return registry;
  }

  /** {@code inprocess://NAME}, the value of {@code schema.registry.url} that names this registry. */
  public URI url() {
    return URI.create(SCHEME + "://" + name);
  }

  /** The content id of a schema's bytes, registered now if new and {@code register}; else empty. */
  synchronized Optional<Long> idOf(final byte[] raw, final boolean register) {
    final Content key = new Content(raw);
    final Long known = ids.get(key);
    if (known != null || !register) {
      return Optional.ofNullable(known);
    }
    final long id = ids.size() + 1L;
    ids.put(key, id);
    contents.put(id, raw.clone());
    return Optional.of(id);
  }

  /** The bytes of a content id, if registered. */
  Optional<byte[]> content(final long id) {
    final byte[] raw = contents.get(id);
    return raw == null ? Optional.empty() : Optional.of(raw.clone());
  }

  /** Schemas registered so far. */
  public int size() {
    return ids.size();
  }

  @Override
  public void close() {
    OPEN.remove(name, this);
  }

  /** A schema's bytes as a map key. */
  private record Content(byte[] raw) {
    @Override
    public boolean equals(final Object o) {
      return o instanceof Content c && Arrays.equals(raw, c.raw);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(raw);
    }

    @Override
    public String toString() {
      return new String(raw, StandardCharsets.UTF_8);
    }
  }

  @Override
  public String toString() {
    return "InProcessRegistry[" + Objects.requireNonNull(name) + ", " + size() + " schemas]";
  }
}
