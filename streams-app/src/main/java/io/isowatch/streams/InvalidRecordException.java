package io.isowatch.streams;

/**
 * A record on the input topic that decodes but cannot be processed where it is: a tombstone, or a
 * record whose key is not the tenant of its value (it may sit in the wrong partition, apart from
 * the rest of its tenant's history). Such records go to the dead-letter topic.
 */
public final class InvalidRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidRecordException(final String message) {
    super(message);
  }
}
