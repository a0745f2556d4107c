package io.isowatch.core.online;

import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.SessionSeqs;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The seq findings of every session (gaps, duplicates, a start other than 0) for {@link
 * ResultBuilder}, kept from one result to the next: a result used to sort every session's
 * transactions by seq again, work growing with the history, for a verdict published every few
 * seconds. A session is scanned on from where the last result stopped when it only grew at its
 * end (the usual case: seqs arrive in order); otherwise it is sorted and scanned again whole.
 * What reaches the findings is exactly what {@link SessionSeqs#report} would add, in the same
 * order. One per state: a cut (which changes the summary's expected seqs) starts a new one.
 */
final class SeqFindings {
  private static final Comparator<Transaction> BY_SEQ = Comparator.comparingLong(Transaction::seq);
  /** Examples {@link Findings} keeps per finding; further instances of a kind only count. */
  private static final int KEPT_PER_KIND = 5;

  private final OnlineState s;
  private final List<SessionScan> scans = new ArrayList<>();
  private int[] byName = new int[0];

  SeqFindings(final OnlineState s) {
    this.s = s;
  }

  /** Adds every session's seq findings, sessions by name, as a scan of each whole session would. */
  void addTo(final Findings findings) {
    if (byName.length != s.sessions.count()) {
      byName = sessionsByName();
    }
    final HorizonSummary h = s.summary;
    for (final int session : byName) {
      while (scans.size() <= session) {
        scans.add(null);
      }
      final long next = h == null ? -1 : h.nextSeq(session);
      if (next == -2) {
        continue;
      }
      SessionScan scan = scans.get(session);
      if (scan == null) {
        scan = new SessionScan(Math.max(0, next));
        scans.set(session, scan);
      }
      scan.update(s.sessions.members(session));
      scan.replay(findings);
    }
  }

  private int[] sessionsByName() {
    final List<Integer> order = new ArrayList<>();
    for (int i = 0; i < s.sessions.count(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> s.sessions.name(a).compareTo(s.sessions.name(b)));
    return order.stream().mapToInt(Integer::intValue).toArray();
  }

  /** One session: its members seen so far, sorted by seq, and what scanning them found. */
  private final class SessionScan {
    private final long expectedFirst;
    private final List<Transaction> bySeq = new ArrayList<>();
    /** Per kind, in the order found: the first findings whole, then only how many more. */
    private final List<Kept> kept = new ArrayList<>();
    private final Map<FindingKind, Long> found = new EnumMap<>(FindingKind.class);
    private SessionSeqs.Scan scan;
    private int seen;
    private int lastSlot = -1;
    private boolean allSeq = true;

    SessionScan(final long expectedFirst) {
      this.expectedFirst = expectedFirst;
    }

    /** Brings the scan up to the session's members (in rank order; a late one may land anywhere). */
    void update(final IntList members) {
      final int n = members.size();
      if (n == seen && (n == 0 || members.get(n - 1) == lastSlot)) {
        return;
      }
      // Slots are unique in a session: a member inserted before the end moves the last seen one.
      final boolean grewAtEnd = n > seen && (seen == 0 || members.get(seen - 1) == lastSlot);
      final List<Transaction> fresh = new ArrayList<>(grewAtEnd ? n - seen : n);
      for (int i = grewAtEnd ? seen : 0; i < n; i++) {
        fresh.add(s.txns.txn(members.get(i)));
      }
      if (!grewAtEnd) {
        allSeq = true;
        bySeq.clear();
      }
      seen = n;
      lastSlot = n == 0 ? -1 : members.get(n - 1);
      for (final Transaction t : fresh) {
        allSeq &= t.hasSeq();
      }
      if (!allSeq) {
        // Never reported: a session with a transaction without seq has no seq findings.
        bySeq.clear();
        restart();
        return;
      }
      // Stable, as the whole session's sort: equal seqs stay in member order.
      fresh.sort(BY_SEQ);
      if (!grewAtEnd || bySeq.isEmpty() || fresh.get(0).seq() >= bySeq.get(bySeq.size() - 1).seq()) {
        if (!grewAtEnd) {
          restart();
        }
        bySeq.addAll(fresh);
        scanAll(fresh);
      } else {
        // A later member sorts before the end: the whole session again, as one stable sort.
        bySeq.addAll(fresh);
        bySeq.sort(BY_SEQ);
        restart();
        scanAll(bySeq);
      }
    }

    private void restart() {
      kept.clear();
      found.clear();
      scan = new SessionSeqs.Scan(expectedFirst, this::keep);
    }

    private void scanAll(final List<Transaction> txns) {
      if (scan == null) {
        restart();
      }
      for (final Transaction t : txns) {
        scan.next(t);
      }
    }

    private void keep(final FindingKind kind, final String txn, final int line, final String message) {
      final long n = found.merge(kind, 1L, Long::sum);
      if (n <= KEPT_PER_KIND) {
        kept.add(new Kept(kind, txn, line, message));
      }
    }

    void replay(final Findings findings) {
      if (!allSeq || seen == 0) {
        return;
      }
      for (final Kept k : kept) {
        findings.add(k.kind(), null, k.txn(), k.line(), k.message());
      }
      found.forEach((kind, n) -> {
        if (n > KEPT_PER_KIND) {
          findings.count(kind, null, n - KEPT_PER_KIND);
        }
      });
    }
  }

  /** A finding as the scan reported it. */
  private record Kept(FindingKind kind, String txn, int line, String message) {}
}
