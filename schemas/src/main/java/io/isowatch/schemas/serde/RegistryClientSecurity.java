package io.isowatch.schemas.serde;

import io.apicurio.registry.resolver.SchemaResolverConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.types.Password;

/**
 * How the Avro serdes authenticate to the schema registry and trust it: HTTP basic authentication
 * and TLS trust and key stores for an {@code https://} registry. Passwords are Kafka {@link
 * Password}s, whose {@code toString()} is {@code [hidden]}, so that printing this record (or a map
 * holding it) never shows them.
 *
 * @param username basic-auth user, empty for none
 * @param password basic-auth password, null for none
 * @param trustStore trust store for the registry's certificate, location empty for the JVM default
 * @param keyStore key store with a client certificate (mutual TLS), location empty for none
 * @param keyPassword password of the private key in the key store, null when it is the store's
 */
public record RegistryClientSecurity(String username, Password password, Store trustStore, Store keyStore,
    Password keyPassword) {

  /**
   * A TLS store.
   *
   * @param location path of the store, empty for none
   * @param type JKS or PKCS12
   * @param password the store's password, null for none
   */
  public record Store(String location, String type, Password password) {
    public Store {
      location = location == null ? "" : location.trim();
      type = type == null || type.isBlank() ? "JKS" : type.trim();
    }

    static Store none() {
      return new Store("", "JKS", null);
    }

    boolean present() {
      return !location.isEmpty();
    }
  }

  public RegistryClientSecurity {
    username = username == null ? "" : username.trim();
    Objects.requireNonNull(trustStore, "trustStore");
    Objects.requireNonNull(keyStore, "keyStore");
  }

  /** No authentication, the JVM's default trust. */
  public static RegistryClientSecurity none() {
    return new RegistryClientSecurity("", null, Store.none(), Store.none(), null);
  }

  /** Apicurio's serde settings for this security: nothing for {@link #none()}. */
  public Map<String, Object> serdeProperties() {
    final Map<String, Object> p = new HashMap<>();
    if (!username.isEmpty()) {
      p.put(SchemaResolverConfig.AUTH_USERNAME, username);
      p.put(SchemaResolverConfig.AUTH_PASSWORD, password == null ? "" : password.value());
    }
    if (trustStore.present()) {
      p.put(SchemaResolverConfig.REQUEST_TRUSTSTORE_LOCATION, trustStore.location());
      p.put(SchemaResolverConfig.REQUEST_TRUSTSTORE_TYPE, trustStore.type());
      if (trustStore.password() != null) {
        p.put(SchemaResolverConfig.REQUEST_TRUSTSTORE_PASSWORD, trustStore.password().value());
      }
    }
    if (keyStore.present()) {
      p.put(SchemaResolverConfig.REQUEST_KEYSTORE_LOCATION, keyStore.location());
      p.put(SchemaResolverConfig.REQUEST_KEYSTORE_TYPE, keyStore.type());
      if (keyStore.password() != null) {
        p.put(SchemaResolverConfig.REQUEST_KEYSTORE_PASSWORD, keyStore.password().value());
      }
      if (keyPassword != null) {
        p.put(SchemaResolverConfig.REQUEST_KEY_PASSWORD, keyPassword.value());
      }
    }
    return p;
  }
}
