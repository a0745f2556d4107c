package io.isowatch.schemas.serde;

import io.apicurio.registry.serde.strategy.TopicIdStrategy;
import org.apache.avro.Schema;

/**
 * Apicurio's {@link TopicIdStrategy} (subject {@code <topic>-value}, as Confluent's
 * TopicNameStrategy), but asking the serializer to extract the record's schema before looking it
 * up.
 *
 * <p>Why: with auto-registration off, Apicurio's serializer (2.6.13) looks the schema up by content.
 * When the strategy does not load the schema, that lookup sends a form of the schema whose nested
 * records are only named, not defined, and ignores {@code apicurio.registry.dereference-schema};
 * it matches no registered version, so a production serializer never finds a schema that was
 * registered. Loading the schema here makes the lookup send the full schema, which matches.
 * AvroSerdesIT covers both the failure and the fix against the real registry.
 */
public final class TopicSubjectStrategy extends TopicIdStrategy<Schema> {
  @Override
  public boolean loadSchema() {
    return true;
  }
}
