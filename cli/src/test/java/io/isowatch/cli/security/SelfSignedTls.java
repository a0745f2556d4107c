package io.isowatch.cli.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Throw-away TLS material for one test run, made by the JDK's own {@code keytool} without a CA:
 * a self-signed server certificate for {@code localhost} and {@code 127.0.0.1} in a PKCS12
 * keystore with the truststore a client is given (holding only that certificate), and a
 * self-signed client certificate ({@value #CLIENT_DN}) for mutual TLS with the truststore a
 * broker's listener is given to accept it. Every password is random per run and reaches keytool
 * through its environment, not its command line.
 *
 * @param server the broker's key and certificate
 * @param serverTrust what clients trust: the broker's certificate
 * @param client the mutual-TLS client's key and certificate
 * @param clientTrust what the broker's TLS listener trusts: the client's certificate
 */
record SelfSignedTls(Store server, Store serverTrust, Store client, Store clientTrust) {
  /** The client certificate's subject, which the broker takes as the client's principal. */
  static final String CLIENT_DN = "CN=isowatch-tls-client";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  /** A PKCS12 store on disk and its password. */
  record Store(Path location, String password) {
    /**
     * The store as Kafka settings under {@code prefix}, e.g. {@code kafka.ssl.truststore.} gives
     * {@code kafka.ssl.truststore.location}, {@code .password} and {@code .type}.
     */
    Map<String, String> settings(final String prefix) {
      return Map.of(prefix + "location", location.toString(), prefix + "password", password,
          prefix + "type", "PKCS12");
    }
  }

  /** Generates the server's and the client's material in {@code dir}. */
  static SelfSignedTls create(final Path dir) throws IOException, InterruptedException {
    final Issued server = selfSigned(dir, "broker", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
    final Issued client = selfSigned(dir, "client", CLIENT_DN, null);
    return new SelfSignedTls(server.keystore(), server.truststore(), client.keystore(), client.truststore());
  }

  /** A fresh random secret (hex), for store passwords and SCRAM credentials. */
  static String secret() {
    final byte[] bytes = new byte[18];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** A key pair with its certificate, and a truststore holding only that certificate. */
  private record Issued(Store keystore, Store truststore) {}

  /** A key pair with its self-signed certificate (EC P-256, valid two days), and its truststore. */
  private static Issued selfSigned(final Path dir, final String alias, final String dname, final String san)
      throws IOException, InterruptedException {
    final Store keystore = new Store(dir.resolve(alias + "-keystore.p12"), secret());
    final Store truststore = new Store(dir.resolve(alias + "-truststore.p12"), secret());
    final Path certificate = dir.resolve(alias + ".pem");
    final List<String> generate = new ArrayList<>(List.of("-genkeypair", "-alias", alias, "-keyalg", "EC",
        "-groupname", "secp256r1", "-validity", "2", "-dname", dname));
    if (san != null) {
      generate.addAll(List.of("-ext", san));
    }
    // PKCS12 keeps one password for the store and its keys.
    generate.addAll(List.of("-storetype", "PKCS12", "-keystore", keystore.location().toString(),
        "-storepass:env", "STORE_PASSWORD", "-keypass:env", "STORE_PASSWORD"));
    keytool(keystore.password(), generate);
    keytool(keystore.password(), List.of("-exportcert", "-rfc", "-alias", alias, "-file", certificate.toString(),
        "-keystore", keystore.location().toString(), "-storepass:env", "STORE_PASSWORD"));
    keytool(truststore.password(), List.of("-importcert", "-noprompt", "-alias", alias, "-file",
        certificate.toString(), "-storetype", "PKCS12", "-keystore", truststore.location().toString(),
        "-storepass:env", "STORE_PASSWORD"));
    return new Issued(keystore, truststore);
  }

  /** Runs {@code java.home/bin/keytool} with {@code args}, the password in its environment. */
  private static void keytool(final String password, final List<String> args) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    // A short-lived JVM: C1 only and the serial collector start it about a third faster here.
    command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
    command.addAll(args);
    final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("STORE_PASSWORD", password);
    final Process p = pb.start();
    // Nothing to answer: a prompt (a missing argument) ends at once instead of waiting.
    p.getOutputStream().close();
    final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s: " + args);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + args.get(0) + " failed, exit " + p.exitValue() + ": " + output);
    }
  }
}
