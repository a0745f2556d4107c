package io.isowatch.core.check;

import java.util.List;
import java.util.Set;

/**
 * A typed input finding, aggregated per kind (and key where it has one).
 *
 * @param kind what was found
 * @param levels levels the finding makes undecidable (empty if none)
 * @param key the key concerned, or null
 * @param count how many instances were found
 * @param txns up to a few example transaction ids
 * @param lines up to a few example source lines (1-based; empty if unknown)
 * @param message a sentence for a person
 */
public record Finding(
    FindingKind kind,
    Set<Level> levels,
    String key,
    long count,
    List<String> txns,
    List<Integer> lines,
    String message) {
  public Finding {
    levels = Level.strongestFirst(levels);
    txns = List.copyOf(txns);
    lines = List.copyOf(lines);
  }
}
