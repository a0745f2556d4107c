/**
 * Databases the agent runs against: JDBC (PostgreSQL, MariaDB, H2) and a deliberately faulty
 * in-memory store. A target runs statements and says what a failure lets the client conclude;
 * what is recorded is decided in one place, {@code io.isowatch.agent.run.TransactionRunner}.
 */
package io.isowatch.agent.target;
