package io.isowatch.core.gen;

import java.io.IOException;

/** A simulated database running the background workload, one scheduling step at a time. */
interface Simulation {
  /** Runs one step; it emits at most one transaction. */
  void step() throws IOException;
}
