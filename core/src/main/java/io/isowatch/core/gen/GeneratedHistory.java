package io.isowatch.core.gen;

import io.isowatch.core.history.History;

/** A generated history held in memory, with what went into it. */
public record GeneratedHistory(History history, GenerationSummary summary) {}
