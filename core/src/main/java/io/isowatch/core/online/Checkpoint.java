package io.isowatch.core.online;

import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A checkpoint as read ({@link CheckpointReader}): what {@link OnlineChecker#restore} rebuilds
 * the engine from. The state right after a cut is the seeded next state (summary, key and session
 * tables, findings, thin-air values and the ThinAirReads published, repeated values) with the segment replayed into it, so this is
 * exactly what a cut passes to that replay, plus the checker's own fields.
 */
record Checkpoint(
    HorizonSummary summary,
    List<String> keyNames,
    List<Long> keyInitials,
    List<String> sessionNames,
    int[] sessionArrivals,
    SegmentTxns segment,
    CheckedReads checked,
    Set<WaitingRead> waiting,
    int lastReleasedPos,
    CarriedCounters carried,
    Findings findings,
    KeyValueTable thinAir,
    ThinAirReads thinAirPublished,
    RepeatedValues repeated,
    boolean repeatsDeclared,
    Map<Level, Verdict> published,
    long maxEnd,
    long nanos) {}
