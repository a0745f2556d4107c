package io.isowatch.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TransactionEvent;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class CachingAvroDatumProviderTest {
  @Test
  void shouldHandOutOneReaderPerSchemaWhenEqualInstancesAlternate() {
    // Given: two equal instances of one writer schema, and another schema
    final CachingAvroDatumProvider<SpecificRecord> provider = new CachingAvroDatumProvider<>();
    final Schema first = TransactionEvent.getClassSchema();
    final Schema equalCopy = new Schema.Parser().parse(first.toString());
    final Schema other = Anomaly.getClassSchema();

    // When
    final DatumReader<SpecificRecord> a = provider.createDatumReader(first);
    final DatumReader<SpecificRecord> b = provider.createDatumReader(equalCopy);
    final DatumReader<SpecificRecord> c = provider.createDatumReader(equalCopy);
    final DatumReader<SpecificRecord> d = provider.createDatumReader(other);
    final DatumReader<SpecificRecord> e = provider.createDatumReader(first);

    // Then: the same reader for equal schemas, whichever instance, another for another schema
    assertSame(a, b);
    assertSame(a, c);
    assertSame(a, e);
    assertNotSame(a, d);
  }
}
