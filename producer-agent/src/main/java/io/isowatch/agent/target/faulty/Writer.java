package io.isowatch.agent.target.faulty;

import java.util.HashMap;
import java.util.Map;

/**
 * A committed writing transaction of the faulty store: where it stands in commit order, which
 * versions it read and installed, and when its client recorded its end (known only after the
 * commit returned; {@link Long#MAX_VALUE} until then).
 */
final class Writer {
  static final Writer INITIAL = new Writer("init", "", 0);

  final String txnId;
  final String session;
  final long commitIndex;
  final Map<String, Version> read = new HashMap<>(4);
  final Map<String, Version> installed = new HashMap<>(4);
  volatile long clientEnd = Long.MAX_VALUE;

  Writer(final String txnId, final String session, final long commitIndex) {
    this.txnId = txnId;
    this.session = session;
    this.commitIndex = commitIndex;
    if (commitIndex == 0) {
      clientEnd = Long.MIN_VALUE;
    }
  }

  boolean initial() {
    return commitIndex == 0;
  }
}
