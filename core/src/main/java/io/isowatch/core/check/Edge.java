package io.isowatch.core.check;

/**
 * One edge of a counterexample cycle.
 *
 * @param from id of the source transaction
 * @param to id of the target transaction
 * @param kind the dependency kind
 * @param key the key the dependency is on; null for SO and RT
 * @param value the version the edge is about, null for SO and RT: for WR the value read; for WW
 *     the value {@code from} installed and {@code to} overwrote; for RW the value {@code from} read
 *     and {@code to} overwrote
 */
public record Edge(String from, String to, EdgeKind kind, String key, Long value) {}
