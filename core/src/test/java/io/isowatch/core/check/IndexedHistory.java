package io.isowatch.core.check;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A history in canonical order with dense integer ids, the form every later stage works on.
 *
 * <p>Transaction 0 is the implicit initial transaction. Transactions 1..n are grouped by session
 * (sessions sorted by name) and ordered within a session by seq when every transaction of the
 * session has one, else by source order. The order therefore depends on the history, never on how
 * the source interleaved different sessions, which keeps results identical for every interleaving.
 */
final class IndexedHistory {
  static final int INIT = 0;

  final Transaction[] txns;
  final int[] sessionOf;
  final String[] sessionNames;
  final Map<String, Integer> keyIds;
  final String[] keyNames;
  final int[][] opKeys;
  final Findings findings;

  private IndexedHistory(
      final Transaction[] txns,
      final int[] sessionOf,
      final String[] sessionNames,
      final Map<String, Integer> keyIds,
      final int[][] opKeys,
      final Findings findings) {
    this.txns = txns;
    this.sessionOf = sessionOf;
    this.sessionNames = sessionNames;
    this.keyIds = keyIds;
    this.keyNames = new String[keyIds.size()];
    keyIds.forEach((k, id) -> keyNames[id] = k);
    this.opKeys = opKeys;
    this.findings = findings;
  }

  int size() {
    return txns.length;
  }

  int keys() {
    return keyNames.length;
  }

  String id(final int t) {
    return t == INIT ? "init" : txns[t].id();
  }

  static IndexedHistory of(final History history, final Findings findings) {
    final List<Transaction> unique = dropDuplicateIds(history.transactions(), findings);
    final Map<String, List<Transaction>> bySession = new HashMap<>();
    for (final Transaction t : unique) {
      bySession.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    final String[] sessionNames = bySession.keySet().toArray(new String[0]);
    java.util.Arrays.sort(sessionNames);
    final Transaction[] txns = new Transaction[unique.size() + 1];
    final int[] sessionOf = new int[txns.length];
    sessionOf[INIT] = -1;
    int next = 1;
    for (int s = 0; s < sessionNames.length; s++) {
      final List<Transaction> session = bySession.get(sessionNames[s]);
      orderSession(session, findings);
      for (final Transaction t : session) {
        sessionOf[next] = s;
        txns[next++] = t;
      }
    }
    final Map<String, Integer> keyIds = new HashMap<>();
    final int[][] opKeys = new int[txns.length][];
    opKeys[INIT] = new int[0];
    for (int i = 1; i < txns.length; i++) {
      final List<Op> ops = txns[i].ops();
      final int[] ks = new int[ops.size()];
      for (int j = 0; j < ks.length; j++) {
        final String key = ops.get(j).key();
        Integer id = keyIds.get(key);
        if (id == null) {
          id = keyIds.size();
          keyIds.put(key, id);
        }
        ks[j] = id;
      }
      opKeys[i] = ks;
    }
    return new IndexedHistory(txns, sessionOf, sessionNames, keyIds, opKeys, findings);
  }

  private static List<Transaction> dropDuplicateIds(final List<Transaction> all, final Findings findings) {
    final Set<String> seen = new HashSet<>(all.size() * 2);
    final List<Transaction> unique = new ArrayList<>(all.size());
    for (final Transaction t : all) {
      if (seen.add(t.id())) {
        unique.add(t);
      } else {
        findings.add(FindingKind.DUPLICATE_TXN_ID, null, t.id(), t.line(), FindingMessages.duplicateTxnId(t.id()));
      }
    }
    return unique;
  }

  /** Sorts one session by seq when all of its transactions carry one, and reports seq problems. */
  private static void orderSession(final List<Transaction> session, final Findings findings) {
    final boolean allSeq = session.stream().allMatch(Transaction::hasSeq);
    if (!allSeq) {
      return;
    }
    session.sort(Comparator.comparingLong(Transaction::seq));
    SessionSeqs.report(session, findings);
  }
}
