package io.isowatch.core.format;

import java.util.Map;

/**
 * One operation map of a Jepsen history ({@code {:type :invoke, :f :txn, :value [...], :process 0,
 * :time 123, :index 0}}), decoded from EDN or JSON.
 *
 * @param type invoke, ok, fail or info
 * @param f the function, e.g. txn; null when absent
 * @param process the process as text ({@code 0}, or {@code nemesis}); null when absent
 * @param value the raw {@code :value}: for txn ops a list of micro-ops {@code [f k v]}; null when absent
 * @param time nanoseconds since the test started, or null
 * @param index the op's index in the history, or null
 * @param line 1-based line where the op starts
 * @param ordinal 0-based position of the op in the file, standing in for a missing index
 */
record JepsenOp(
    String type, String f, String process, Object value, Long time, Long index, int line, long ordinal) {

  /** Decodes an op map whose keys are EDN keywords or JSON strings. */
  static JepsenOp decode(final Object form, final int line, final long ordinal) throws InvalidHistoryException {
    if (!(form instanceof Map<?, ?> map)) {
      throw new InvalidHistoryException(line, "expected an op map like {:type :invoke, :f :txn, :value [...], :process 0}, got "
          + ElleNames.show(form));
    }
    String type = null;
    String f = null;
    String process = null;
    Object value = null;
    Long time = null;
    Long index = null;
    for (final Map.Entry<?, ?> e : map.entrySet()) {
      final Object v = e.getValue();
      switch (ElleNames.name(e.getKey())) {
        case "type" -> type = ElleNames.name(v);
        case "f" -> f = v == null ? null : ElleNames.name(v);
        case "process" -> process = v == null ? null : ElleNames.name(v);
        case "value" -> value = v; // checked only for txn ops: nemesis values are sets, maps…
        case "time" -> time = integer("time", v, line);
        case "index" -> index = integer("index", v, line);
        default -> {
          // :error, :node and other annotations are not needed
        }
      }
    }
    if (type == null) {
      throw new InvalidHistoryException(line, "op has no :type");
    }
    return new JepsenOp(type, f, process, value, time, index, line, ordinal);
  }

  private static Long integer(final String field, final Object v, final int line) throws InvalidHistoryException {
    if (v == null) {
      return null;
    }
    if (v instanceof Long l) {
      return l;
    }
    throw new InvalidHistoryException(line, ":" + field + " must be an integer, got " + ElleNames.show(v));
  }
}
