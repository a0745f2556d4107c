package io.isowatch.core.oracle;

/**
 * The levels {@link WeakLevelOracle} decides, weakest first (within each family). Two families,
 * each defined literally from its source:
 *
 * <p><b>Axiomatic</b> (Biswas and Enea, "On the Complexity of Checking Transactional Consistency",
 * OOPSLA 2019, as recalled in {@code papers/dpor-weak-isolation.txt} Section 2.2.2, Figure 2 and
 * Appendix A, Figure A.1): a history satisfies the level when some strict total <em>commit
 * order</em> {@code co} on its transactions (the initial transaction first) extends {@code so ∪
 * wr} and satisfies the level's axioms. Each axiom has the form: for every key x, every t1 ≠ t2 and
 * every read τ of x in t3 that reads from t1, if t2 writes x and φ(t2, τ) then t2 co t1.
 *
 * <ul>
 *   <li>{@link #RC} Read Committed: φ = (t2, τ) ∈ wr ∘ po (t3 read something from t2 earlier in
 *       program order than τ);
 *   <li>{@link #RA} Read Atomic: φ = (t2, t3) ∈ so ∪ wr;
 *   <li>{@link #CC} Causal Consistency: φ = (t2, t3) ∈ (so ∪ wr)+;
 *   <li>{@link #PC} Prefix Consistency: the Prefix axiom alone, φ = (t2, t3) ∈ co* ∘ (so ∪ wr);
 *   <li>{@link #SI} Snapshot Isolation: Prefix and Conflict, where Conflict's φ = ∃ t4, y: t3 and
 *       t4 write y, (t2, t4) ∈ co*, (t4, t3) ∈ co;
 *   <li>{@link #SER} Serializability: φ = (t2, t3) ∈ co.
 * </ul>
 *
 * <p><b>Adya</b> (A. Adya, "Weak Consistency: A Generalized Theory and Optimistic Implementations
 * for Distributed Transactions", PhD thesis, MIT, 1999; A. Adya, B. Liskov, P. O'Neil,
 * "Generalized Isolation Level Definitions", ICDE 2000): phenomena on the direct serialization
 * graph (DSG) of committed transactions with write-dependency (ww), read-dependency (wr) and
 * anti-dependency (rw) edges, for some version order of every key:
 *
 * <ul>
 *   <li>{@link #RC_ADYA} PL-2: no G1, where G1a (aborted read), G1b (intermediate read) and G1c
 *       (a DSG cycle of ww and wr edges only; this includes G0, a cycle of ww edges only);
 *   <li>{@link #RR} PL-2.99: no G1 and no G2-item (a DSG cycle with at least one item
 *       anti-dependency edge). Histories of registers have no predicate reads, so here PL-2.99
 *       coincides with PL-3 (full serializability in Adya's sense, without session order).
 * </ul>
 *
 * <p>Adya's DSG has no session order; the axiomatic levels do (co extends so). That and RC's
 * per-transaction monotonicity are where {@link #RC} and {@link #RC_ADYA} differ (docs/levels.md).
 */
public enum WeakLevel {
  RC_ADYA,
  RC,
  RA,
  CC,
  PC,
  SI,
  SER,
  RR;

  /**
   * The name of the same level in the engine's {@code io.isowatch.core.check.Level} (issue 12):
   * {@code PL2} for {@link #RC_ADYA}, the enum name otherwise.
   */
  public String levelName() {
    return this == RC_ADYA ? "PL2" : name();
  }

  /** True for the levels defined by Biswas and Enea's axioms on a commit order. */
  public boolean axiomatic() {
    return this != RC_ADYA && this != RR;
  }
}
