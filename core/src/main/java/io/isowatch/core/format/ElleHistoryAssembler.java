package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the op maps of a Jepsen/Elle rw-register history, in file order, into transactions.
 *
 * <ul>
 *   <li>Pairing: each {@code :invoke} is completed by the next {@code :ok}, {@code :fail} or
 *       {@code :info} of the same {@code :process} (Jepsen never lets a process have two ops
 *       outstanding; an invoke while one is outstanding is an error). A completion without an
 *       invoke stands alone (histories of completions only). An invoke never completed is of
 *       unknown outcome.
 *   <li>Session = process ({@code p<process>}); transaction id = {@code p<process>-<index>}, the
 *       {@code :index} of the invoke (of the completion if there is no invoke; the op's 0-based
 *       position in the file if there is no {@code :index}).
 *   <li>Status: ok is committed, fail aborted, info (and no completion) unknown.
 *   <li>Ops: the completion's {@code :value} (the invoke's if the completion has none), in order;
 *       keys (keywords, integers or strings) become strings ({@code :x} is {@code x}). In an ok
 *       completion a nil read is a read of an absent key (null). In fail, info and uncompleted
 *       transactions a nil read is the invocation's placeholder, not an observation, and is dropped
 *       (Elle likewise infers nothing from reads of failed or crashed transactions).
 *   <li>Times: {@code :time} is in nanoseconds since the test started. start = invoke time
 *       rounded down to microseconds; end = completion time rounded up, for ok and fail only: an
 *       info op may still take effect after the client gave up, so its end is {@link
 *       Transaction#NO_TIME}, as is the start of a completion without invoke.
 *   <li>Ops whose {@code :f} is not {@code :txn} (nemesis, other workloads) and ops of the {@code
 *       :nemesis} process are skipped and logged.
 * </ul>
 *
 * <p>Transactions are given in the order of their first op (the invoke, or the completion without
 * one). Given as they are read ({@code streaming}), each goes out once it and every earlier one are
 * complete, so that a reader thread can hand them over while the rest is read; otherwise all go out
 * at {@link #finish}. Either way the transactions, their order and the error are the same: an error of
 * an op's form is thrown when the op is read, one of a transaction as a whole (no {@code :value}, a
 * repeated id its receiver rejects) at {@link #finish}, the first in transaction order, as when every
 * transaction was made at the end.
 */
final class ElleHistoryAssembler {
  private static final Logger LOG = LoggerFactory.getLogger(ElleHistoryAssembler.class);

  private final StringInterner strings = new StringInterner();
  private final InputLimits limits;
  /** Transactions not yet given, in the order of their first op. */
  private final ArrayDeque<Slot> slots = new ArrayDeque<>();
  private final Map<String, Slot> outstanding = new HashMap<>();
  private final JsonlReadAhead.Emit out;
  private final boolean streaming;
  /** The first error of a transaction as a whole, thrown at {@link #finish}; nothing is given after it. */
  private InvalidHistoryException deferred;
  /** The receiver wants nothing more. */
  private boolean stopped;
  private int skipped;

  /**
   * Gives each transaction to {@code out}: as soon as it and the ones before it are complete when
   * {@code streaming}, else all at {@link #finish}.
   */
  ElleHistoryAssembler(final InputLimits limits, final JsonlReadAhead.Emit out, final boolean streaming) {
    this.limits = limits;
    this.out = out;
    this.streaming = streaming;
  }

  /** Takes the next op of the history. */
  void accept(final JepsenOp op) throws InvalidHistoryException {
    if ((op.f() != null && !op.f().equals("txn")) || "nemesis".equals(op.process())) {
      skipped++;
      return;
    }
    if (op.process() == null) {
      throw new InvalidHistoryException(op.line(), "op has no :process, so it cannot be paired or given a session");
    }
    switch (op.type()) {
      case "invoke" -> {
        final Slot open = outstanding.get(op.process());
        if (open != null) {
          throw new InvalidHistoryException(op.line(), "process " + op.process() + " invokes again while its invoke at line "
              + open.invoke.line() + " has not completed");
        }
        final Slot slot = new Slot(op);
        slots.add(slot);
        outstanding.put(op.process(), slot);
      }
      case "ok", "fail", "info" -> {
        Slot slot = outstanding.remove(op.process());
        if (slot == null) {
          slot = new Slot(null);
          slots.add(slot);
        }
        slot.completion = op;
        if (streaming && slot == slots.peekFirst()) {
          give(false);
        }
      }
      default -> throw new InvalidHistoryException(op.line(), "unknown :type :" + op.type()
          + " (expected :invoke, :ok, :fail or :info)");
    }
  }

  /** Gives every transaction left (those never completed too), then throws the deferred error if any. */
  void finish() throws InvalidHistoryException {
    if (skipped > 0) {
      LOG.info("Skipped ops that are not transactions count=[{}]", skipped);
    }
    give(true);
    slots.clear();
    if (deferred != null) {
      throw deferred;
    }
  }

  /** Gives the transactions at the head, while complete ({@code all}: every one). */
  private void give(final boolean all) {
    while (deferred == null && !stopped && !slots.isEmpty() && (all || slots.peekFirst().completion != null)) {
      final Slot slot = slots.pollFirst();
      try {
        stopped = !out.accept(transaction(slot));
      } catch (final InvalidHistoryException e) {
        deferred = e;
      }
    }
  }

  private Transaction transaction(final Slot slot) throws InvalidHistoryException {
    final JepsenOp first = slot.invoke != null ? slot.invoke : slot.completion;
    final JepsenOp done = slot.completion;
    final TxnStatus status = done == null ? TxnStatus.UNKNOWN : switch (done.type()) {
      case "ok" -> TxnStatus.COMMITTED;
      case "fail" -> TxnStatus.ABORTED;
      default -> TxnStatus.UNKNOWN;
    };
    final JepsenOp source = done != null && done.value() != null ? done : slot.invoke;
    if (source == null || source.value() == null) {
      throw new InvalidHistoryException(first.line(), "op has no :value");
    }
    final List<Op> ops = ops(source, status == TxnStatus.COMMITTED);
    final long index = first.index() != null ? first.index() : first.ordinal();
    final String session = strings.intern("p" + first.process());
    final long start = slot.invoke != null && slot.invoke.time() != null
        ? Micros.floor(slot.invoke.time(), TimeUnit.NANOSECONDS)
        : Transaction.NO_TIME;
    final long end = done != null && status != TxnStatus.UNKNOWN && done.time() != null
        ? Micros.ceil(done.time(), TimeUnit.NANOSECONDS)
        : Transaction.NO_TIME;
    return new Transaction(session + "-" + index, session, Transaction.NO_SEQ, status, start, end, ops, null, null,
        first.line());
  }

  private List<Op> ops(final JepsenOp source, final boolean observed) throws InvalidHistoryException {
    if (source.value() instanceof Mops m) {
      return m.ops(observed);
    }
    if (!(source.value() instanceof List<?> mops)) {
      throw new InvalidHistoryException(source.line(), ":value must be a vector of micro-ops like [[:r :x nil] [:w :x 1]], got "
          + ElleNames.show(source.value()));
    }
    if (mops.size() > limits.maxOpsPerTxn()) {
      throw InputLimits.exceeded(source.line(), "too many micro-ops in the :value", InputLimits.MAX_OPS_PER_TXN,
          limits.maxOpsPerTxn());
    }
    final List<Op> ops = new ArrayList<>(mops.size());
    for (final Object mop : mops) {
      if (!(mop instanceof List<?> m) || m.size() != 3) {
        throw new InvalidHistoryException(source.line(), "micro-op " + ElleNames.show(mop)
            + " must be [f k v], e.g. [:r :x 1] or [:w :x 2]");
      }
      final String f = ElleNames.name(m.get(0));
      final String key = strings.intern(key(m.get(1), m, source.line()));
      if ("r".equals(f) && m.get(2) instanceof List<?> list) {
        // Elle's list-append: a read returns the whole list.
        ops.add(Op.readList(key, elements(list, m, source.line())));
        continue;
      }
      final Long value = value(m.get(2), m, source.line());
      switch (f) {
        case "r" -> {
          if (value != null || observed) {
            ops.add(Op.read(key, value));
          }
        }
        case "w" -> {
          if (value == null) {
            throw new InvalidHistoryException(source.line(), "micro-op " + ElleNames.show(m) + " writes nil");
          }
          ops.add(Op.write(key, value));
        }
        case "append" -> {
          if (value == null) {
            throw new InvalidHistoryException(source.line(), "micro-op " + ElleNames.show(m) + " appends nil");
          }
          ops.add(Op.append(key, value));
        }
        default -> throw new InvalidHistoryException(source.line(), "micro-op " + ElleNames.show(m)
            + ": only :r, :w (rw-register) and :append (list-append) are supported, not :" + f);
      }
    }
    return ops;
  }

  private static String key(final Object k, final List<?> mop, final int line) throws InvalidHistoryException {
    if (k instanceof EdnReader.Keyword || k instanceof String || k instanceof Long || k instanceof BigInteger) {
      return ElleNames.name(k);
    }
    throw new InvalidHistoryException(line, "micro-op " + ElleNames.show(mop)
        + ": the key must be a keyword, an integer or a string");
  }

  private static Long value(final Object v, final List<?> mop, final int line) throws InvalidHistoryException {
    if (v == null || v instanceof Long) {
      return (Long) v;
    }
    throw new InvalidHistoryException(line, "micro-op " + ElleNames.show(mop)
        + ": the value must be a 64-bit integer or nil (or, for a list-append read, a vector of them)");
  }

  /** The elements of a list-append read, each a 64-bit integer, at most max-list-elements of them. */
  private List<Long> elements(final List<?> list, final List<?> mop, final int line) throws InvalidHistoryException {
    if (list.size() > limits.maxListElements()) {
      throw InputLimits.exceeded(line, "list read too long", InputLimits.MAX_LIST_ELEMENTS, limits.maxListElements());
    }
    final List<Long> elements = new ArrayList<>(list.size());
    for (final Object e : list) {
      if (!(e instanceof Long n)) {
        throw new InvalidHistoryException(line, "micro-op " + ElleNames.show(mop)
            + ": a list read's elements must be 64-bit integers, got " + ElleNames.show(e));
      }
      elements.add(n);
    }
    return elements;
  }

  /** The interner of keys and processes, shared with {@link EdnFastPath}. */
  StringInterner strings() {
    return strings;
  }

  /**
   * A {@code :value} vector of rw-register or append micro-ops as {@link EdnFastPath} decodes it:
   * keys interned, values 64-bit integers or nil (reads only). Its ops are those {@link #ops} makes
   * of the same vector read as EDN forms.
   */
  static final class Mops {
    static final byte READ = 0;
    static final byte WRITE = 1;
    static final byte APPEND = 2;

    private final byte[] kinds;
    private final String[] keys;
    private final long[] values;
    private final boolean[] nils;

    Mops(final byte[] kinds, final String[] keys, final long[] values, final boolean[] nils) {
      this.kinds = kinds;
      this.keys = keys;
      this.values = values;
      this.nils = nils;
    }

    /** The ops; a nil read is kept only when {@code observed} (an ok completion's). */
    List<Op> ops(final boolean observed) {
      final List<Op> ops = new ArrayList<>(kinds.length);
      for (int i = 0; i < kinds.length; i++) {
        switch (kinds[i]) {
          case READ -> {
            if (!nils[i]) {
              ops.add(Op.read(keys[i], values[i]));
            } else if (observed) {
              ops.add(Op.read(keys[i], null));
            }
          }
          case WRITE -> ops.add(Op.write(keys[i], values[i]));
          default -> ops.add(Op.append(keys[i], values[i]));
        }
      }
      return ops;
    }
  }

  /** An invoke and its completion, either of which may be missing. */
  private static final class Slot {
    final JepsenOp invoke;
    JepsenOp completion;

    Slot(final JepsenOp invoke) {
      this.invoke = invoke;
    }
  }
}
