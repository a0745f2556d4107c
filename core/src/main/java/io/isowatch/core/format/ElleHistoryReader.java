package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.isowatch.core.history.History;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/**
 * Reads Elle/Jepsen rw-register histories, in EDN (Jepsen's {@code history.edn}: op maps one after
 * another, or one vector of them) or in JSON (an array of op objects, or one object per line, as
 * elle-cli takes them: {@code {"type":"ok","f":"txn","process":0,"value":[["r","x",1]]}}). How ops
 * become transactions is described in {@link ElleHistoryAssembler}; EDN parsing in {@link
 * EdnReader}. Plain op forms are scanned without the general parsers ({@link EdnFastPath} for EDN,
 * {@link ElleJsonFastPath} for JSON one op per line); what they do not take is read as before.
 *
 * <p>Reads of absent keys are null, as Elle writes them ({@code nil}): check these histories with
 * an initial value of null.
 */
public final class ElleHistoryReader {
  private static final int SNIFF_CHARS = 1 << 12;

  private final InputLimits limits;
  private final boolean fast;

  /** A reader with the default {@link InputLimits}. */
  public ElleHistoryReader() {
    this(InputLimits.defaults());
  }

  public ElleHistoryReader(final InputLimits limits) {
    this(limits, true);
  }

  /**
   * With {@code fast} false, every EDN form is read by the general {@link EdnReader} and every JSON
   * op by Jackson (for tests).
   */
  ElleHistoryReader(final InputLimits limits, final boolean fast) {
    this.limits = limits;
    this.fast = fast;
  }

  /**
   * Reads a whole history, every transaction made once the input is read. The reader is consumed but
   * not closed.
   */
  public History read(final Reader in) throws IOException, InvalidHistoryException {
    final HistoryAccumulator acc = new HistoryAccumulator();
    read(in, t -> {
      acc.add(t);
      return true;
    }, false);
    return acc.build();
  }

  /**
   * Reads a whole history, giving each transaction to {@code out} as soon as it and the ones before
   * it are complete (see {@link ElleHistoryAssembler}): the same transactions, in the same order, with
   * the same error at the same point of the transactions given, as {@link #read(Reader)}, whose
   * receiver also rejects a repeated id. The reader is consumed but not closed.
   */
  public void read(final Reader in, final JsonlReadAhead.Emit out) throws IOException, InvalidHistoryException {
    read(in, out, true);
  }

  private void read(final Reader in, final JsonlReadAhead.Emit out, final boolean streaming)
      throws IOException, InvalidHistoryException {
    final BufferedReader buffered = in instanceof BufferedReader b ? b : new BufferedReader(in, 1 << 16);
    final ElleHistoryAssembler assembler = new ElleHistoryAssembler(limits, out, streaming);
    if (isJson(buffered)) {
      readJson(buffered, assembler);
    } else {
      readEdn(buffered, assembler);
    }
    assembler.finish();
  }

  /**
   * JSON when the first op's first key is a JSON string ({@code {"type"…} or [{"type"…}}),
   * EDN otherwise ({@code {:type…}}, comments, tagged literals).
   */
  private static boolean isJson(final BufferedReader in) throws IOException {
    in.mark(SNIFF_CHARS);
    try {
      final char[] head = new char[SNIFF_CHARS];
      final int n = in.read(head, 0, head.length);
      int seen = 0;
      for (int i = 0; i < n; i++) {
        final char c = head[i];
        if (Character.isWhitespace(c)) {
          continue;
        }
        if (seen == 0 && (c == '[' || c == '{')) {
          seen = c == '{' ? 2 : 1;
          continue;
        }
        if (seen == 1 && c == '{') {
          seen = 2;
          continue;
        }
        return (seen == 2 && c == '"') || (seen == 1 && c == ']');
      }
      return false;
    } finally {
      in.reset();
    }
  }

  private void readEdn(final Reader in, final ElleHistoryAssembler assembler)
      throws IOException, InvalidHistoryException {
    final EdnReader edn = new EdnReader(in, limits);
    final EdnFastPath fast = this.fast ? new EdnFastPath(limits, assembler.strings()) : null;
    long ordinal = 0;
    final int first = edn.peekSignificant();
    if (first == '[' || first == '(') {
      // One collection holding every op.
      final int openLine = edn.line();
      final char close = first == '[' ? ']' : ')';
      edn.skipChar();
      while (true) {
        final int c = edn.peekSignificant();
        if (c == close) {
          edn.skipChar();
          break;
        }
        if (c == -1) {
          throw new InvalidHistoryException(openLine, "EDN: the history opened here is not closed");
        }
        assembler.accept(next(edn, fast, ordinal++));
      }
      if (edn.peekSignificant() != -1) {
        throw new InvalidHistoryException(edn.line(), "EDN: unexpected content after the history vector");
      }
    } else {
      while (edn.peekSignificant() != -1) {
        assembler.accept(next(edn, fast, ordinal++));
      }
    }
  }

  /** The next op: by the fast path when it takes the form, else read as EDN and decoded. */
  private static JepsenOp next(final EdnReader edn, final EdnFastPath fast, final long ordinal)
      throws IOException, InvalidHistoryException {
    if (fast != null) {
      final JepsenOp op = edn.readFast(fast, ordinal);
      if (op != null) {
        return op;
      }
    }
    final int line = edn.line();
    return JepsenOp.decode(edn.read(), line, ordinal);
  }

  /**
   * JSON: one op object per line is scanned by {@link ElleJsonFastPath} line by line; from the first
   * line it does not take (an array, an object over several lines, anything unusual), Jackson reads
   * the rest as it would have read the whole input (see {@link ElleJsonLines}).
   */
  private void readJson(final Reader in, final ElleHistoryAssembler assembler)
      throws IOException, InvalidHistoryException {
    if (!fast) {
      readJson(in, assembler, 0, false, 1);
      return;
    }
    final ElleJsonLines lines = new ElleJsonLines(in, new ElleJsonFastPath(limits, assembler.strings()));
    long ordinal = 0;
    for (JepsenOp op = lines.next(ordinal); op != null; op = lines.next(ordinal)) {
      assembler.accept(op);
      ordinal++;
    }
    readJson(lines.rest(), assembler, ordinal, ordinal > 0, lines.lastOpLine());
  }

  /**
   * Jackson reads the ops of {@code in} from the {@code firstOrdinal}th on; {@code afterOps}: ops were
   * taken before (so the input is not an array, whatever its first token here), the last of them on
   * {@code lastOpLine} (where an error Jackson does not place is reported, as if it had read them).
   */
  private void readJson(final Reader in, final ElleHistoryAssembler assembler, final long firstOrdinal,
      final boolean afterOps, final int lastOpLine) throws IOException, InvalidHistoryException {
    long ordinal = firstOrdinal;
    int line = lastOpLine;
    try (JsonParser p = limits.jsonFactory().createParser(in)) {
      JsonToken t = p.nextToken();
      final boolean array = !afterOps && t == JsonToken.START_ARRAY;
      if (array) {
        t = p.nextToken();
      }
      while (t != null && t != JsonToken.END_ARRAY) {
        line = p.currentTokenLocation().getLineNr();
        if (t != JsonToken.START_OBJECT) {
          throw new InvalidHistoryException(line, "expected an op object like {\"type\":\"ok\",\"process\":0,...}");
        }
        assembler.accept(JepsenOp.decode(JsonValues.read(p, limits.maxDepth()), line, ordinal++));
        t = p.nextToken();
      }
      if (array && (t == null || p.nextToken() != null)) {
        line = p.currentLocation().getLineNr();
        throw new InvalidHistoryException(line, t == null ? "the JSON array is not closed" : "unexpected content after the JSON array");
      }
    } catch (final JsonProcessingException e) {
      throw limits.jsonFailure(InputLimits.lineOf(e, line), e);
    }
  }
}
