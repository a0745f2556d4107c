package io.isowatch.core.gen;

import java.util.List;

/**
 * What one generation produced.
 *
 * @param transactions transactions emitted, injected ones included
 * @param committed committed transactions emitted
 * @param aborted aborted transactions emitted (first-committer-wins losers under SI, and
 *     the aborted writers of injected AbortedRead patterns)
 * @param injected the injected anomaly instances, in history order
 */
public record GenerationSummary(long transactions, long committed, long aborted, List<InjectedAnomaly> injected) {
  public GenerationSummary {
    injected = List.copyOf(injected);
  }
}
