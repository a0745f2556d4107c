package io.isowatch.streams.engine;

/** Creates the (empty) engine of a tenant. */
@FunctionalInterface
public interface TenantEngineFactory {
  TenantEngine create(String tenant);
}
