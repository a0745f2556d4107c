package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.io.Reader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Concise expected values for format tests. */
final class Txns {
  static final long NO_TIME = Transaction.NO_TIME;

  private Txns() {}

  static Op r(final String key, final Long value) {
    return Op.read(key, value);
  }

  static Op w(final String key, final long value) {
    return Op.write(key, value);
  }

  static List<Op> ops(final Op... ops) {
    return Arrays.asList(ops);
  }

  static Transaction txn(
      final String id, final String session, final TxnStatus status, final long start, final long end,
      final int line, final Op... ops) {
    return new Transaction(id, session, Transaction.NO_SEQ, status, start, end, ops(ops), null, null, line);
  }

  static Transaction committed(final String id, final String session, final int line, final Op... ops) {
    return txn(id, session, TxnStatus.COMMITTED, NO_TIME, NO_TIME, line, ops);
  }

  /** The transactions with their source lines cleared: for comparing one history across formats. */
  static List<Transaction> withoutLines(final History h) {
    return h.transactions().stream()
        .map(t -> new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(),
            t.tenant(), t.level(), 0))
        .toList();
  }

  /** One of the readers' {@code read} methods, e.g. {@code new TextHistoryReader()::read}. */
  interface ReadFunction {
    History read(Reader in) throws IOException, InvalidHistoryException;
  }

  /** Reads the test resource {@code formats/name} (UTF-8) with {@code reader}. */
  static History read(final String name, final ReadFunction reader) throws IOException, InvalidHistoryException {
    try (Reader in = Files.newBufferedReader(resource(name), StandardCharsets.UTF_8)) {
      return reader.read(in);
    }
  }

  /** A test resource under {@code formats/}. */
  static Path resource(final String name) {
    try {
      return Path.of(Txns.class.getResource("/formats/" + name).toURI());
    } catch (final URISyntaxException | NullPointerException e) {
      throw new IllegalArgumentException("no test resource formats/" + name, e);
    }
  }
}
