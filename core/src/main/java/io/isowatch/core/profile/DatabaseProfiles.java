package io.isowatch.core.profile;

import static io.isowatch.core.check.Level.RA;
import static io.isowatch.core.check.Level.RC;
import static io.isowatch.core.check.Level.RR;
import static io.isowatch.core.check.Level.SER;
import static io.isowatch.core.check.Level.SI;
import static io.isowatch.core.check.Level.SSER;

import io.isowatch.core.check.Level;
import io.isowatch.core.profile.Promise.Certainty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The profile table: what each database's named isolation level promises in IsoWatch's levels
 * ({@code --promise postgres:read-committed}, {@code tenant.promises}). Written from public
 * sources, each entry naming them; where they do not settle a mapping the entry says so
 * ({@link Certainty#UNCERTAIN}) and promises the weaker level. docs/levels.md, "Database profiles",
 * prints the same table. The streaming checker and the offline check read this one table.
 */
public final class DatabaseProfiles {
  // The sources, by the names a reader can look up.
  private static final String HERMITAGE = "Hermitage (github.com/ept/hermitage), summary table";
  private static final String PG_DOCS = "PostgreSQL documentation, 13.2 \"Transaction Isolation\"";
  private static final String JEPSEN_PG = "Jepsen, \"PostgreSQL 12.3\" (2020)";
  private static final String MYSQL_DOCS = "MySQL 8.0 Reference Manual, \"Transaction Isolation Levels\" and"
      + " \"Consistent Nonlocking Reads\" (InnoDB)";
  private static final String JEPSEN_MYSQL = "Jepsen, \"MySQL 8.0.34\" (2023)";
  private static final String MARIADB_DOCS = "MariaDB documentation, \"SET TRANSACTION\" (InnoDB isolation levels)";
  private static final String MARIADB_LIST = "K. Kingsbury on the MariaDB discuss list (Dec 2023): the Jepsen MySQL 8.0.34"
      + " suite shows the same behaviours on MariaDB";
  private static final String LOCAL_PROBE = "this project's lost-update probe (docs/levels.md, \"Database profiles\")";
  private static final String ORACLE_DOCS = "Oracle Database Concepts, \"Data Concurrency and Consistency\"";
  private static final String MSSQL_DOCS = "Microsoft SQL Server documentation, \"SET TRANSACTION ISOLATION LEVEL (Transact-SQL)\"";
  private static final String H2_DOCS = "H2 documentation, \"Advanced\", section \"Transaction Isolation\"";
  private static final String H2_LIST = "E. Ryazanov (H2) on the h2-database group (2021-03-03): SERIALIZABLE prevents the"
      + " three read phenomena but does not ensure equivalence to a serial execution";
  private static final String CRDB_DOCS = "CockroachDB documentation, \"Transaction Isolation\" and \"Read Committed Transactions\"";
  private static final String JEPSEN_CRDB = "Jepsen, \"CockroachDB beta-20160829\" (2017)";
  private static final String YB_DOCS = "YugabyteDB documentation, \"Isolation levels\" (Explore > Transactions)";
  private static final String TIDB_DOCS = "TiDB documentation, \"TiDB Transaction Isolation Levels\"";
  private static final String JEPSEN_TIDB = "Jepsen, \"TiDB 2.1.7\" (2019)";
  private static final String SQLITE_DOCS = "SQLite documentation, \"Isolation In SQLite\"";

  private static final String LOST_UPDATE = "lost update (Hermitage P4)";
  private static final String READ_SKEW = "read skew, a fractured read (Hermitage G-single)";
  private static final String WRITE_SKEW = "write skew (Hermitage G2-item)";
  private static final String STALE_AFTER_UPDATE = "a transaction that updates a row, then reads other rows"
      + " from its older snapshot (NonMonotonicRead; MySQL manual, \"Consistent Nonlocking Reads\"; corpus case"
      + " list-append/mariadb-rr-update-then-read)";
  private static final String DIRTY_READ = "dirty reads (Hermitage G1a, G1b)";

  /** Database names as asked for, to the canonical name of the table. */
  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("postgres", "postgres"), Map.entry("postgresql", "postgres"), Map.entry("pg", "postgres"),
      Map.entry("mysql", "mysql"), Map.entry("mariadb", "mariadb"),
      Map.entry("oracle", "oracle"),
      Map.entry("sqlserver", "sqlserver"), Map.entry("mssql", "sqlserver"),
      Map.entry("h2", "h2"),
      Map.entry("cockroachdb", "cockroachdb"), Map.entry("cockroach", "cockroachdb"), Map.entry("crdb", "cockroachdb"),
      Map.entry("yugabytedb", "yugabytedb"), Map.entry("yugabyte", "yugabytedb"), Map.entry("yb", "yugabytedb"),
      Map.entry("tidb", "tidb"),
      Map.entry("sqlite", "sqlite"));

  private static final Map<String, Promise> TABLE = table();

  private DatabaseProfiles() {}

  /**
   * The promise named by {@code spec}: {@code DATABASE:LEVEL} (any case; spaces and underscores
   * read as hyphens, so {@code mysql:REPEATABLE_READ} works), or a bare IsoWatch level
   * ({@code SI}, {@code read-committed}: see {@link Level#parse}) promising that level.
   *
   * @throws IllegalArgumentException naming the known databases or levels when {@code spec} is neither
   */
  public static Promise parse(final String spec) {
    final String s = spec == null ? "" : spec.trim();
    final int colon = s.indexOf(':');
    if (colon < 0) {
      try {
        return Promise.ofLevel(Level.parse(s));
      } catch (final IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown promise '" + s + "': expected DATABASE:LEVEL (databases: "
            + String.join(", ", databases()) + ") or an IsoWatch level (PL2, RC, RA, CC, PC, SI, RR, SER, SSER)");
      }
    }
    final String db = ALIASES.get(normal(s.substring(0, colon)));
    if (db == null) {
      throw new IllegalArgumentException("unknown database '" + s.substring(0, colon).trim() + "' in promise '" + s
          + "' (known: " + String.join(", ", databases()) + ")");
    }
    final Promise p = TABLE.get(db + ":" + normal(s.substring(colon + 1)));
    if (p == null) {
      throw new IllegalArgumentException("unknown isolation level '" + s.substring(colon + 1).trim() + "' of " + db
          + " in promise '" + s + "' (known: " + String.join(", ", levelsOf(db)) + ")");
    }
    return p;
  }

  /** Every entry of the table, in the order docs/levels.md prints it. */
  public static List<Promise> all() {
    return List.copyOf(TABLE.values());
  }

  /** The canonical database names, sorted. */
  public static Set<String> databases() {
    return Collections.unmodifiableSet(new TreeSet<>(ALIASES.values()));
  }

  private static List<String> levelsOf(final String db) {
    return TABLE.keySet().stream().filter(k -> k.startsWith(db + ":")).map(k -> k.substring(db.length() + 1)).toList();
  }

  private static String normal(final String s) {
    return s.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
  }

  private static Map<String, Promise> table() {
    final Map<String, Promise> t = new LinkedHashMap<>();
    // PostgreSQL: three distinct levels; READ UNCOMMITTED behaves as READ COMMITTED (its documentation).
    final Promise pgRc = entry("postgres:read-committed", "PostgreSQL", "READ COMMITTED", EnumSet.of(RC),
        Map.of(RA, READ_SKEW, SI, LOST_UPDATE), Certainty.DOCUMENTED, List.of(PG_DOCS, HERMITAGE),
        "Each statement sees a snapshot taken when it starts; Hermitage calls it monotonic atomic view, which"
            + " IsoWatch's RC (Biswas-Enea) is.");
    t.put(pgRc.spec(), pgRc);
    put(t, "postgres:read-uncommitted", "PostgreSQL", "READ UNCOMMITTED", EnumSet.of(RC),
        Map.of(RA, READ_SKEW, SI, LOST_UPDATE), Certainty.DOCUMENTED, List.of(PG_DOCS, HERMITAGE),
        "PostgreSQL runs READ UNCOMMITTED as READ COMMITTED.");
    put(t, "postgres:repeatable-read", "PostgreSQL", "REPEATABLE READ", EnumSet.of(SI),
        Map.of(RR, WRITE_SKEW + "; it is snapshot isolation, not Adya's PL-2.99", SER, WRITE_SKEW),
        Certainty.DOCUMENTED, List.of(PG_DOCS, HERMITAGE, JEPSEN_PG), "");
    put(t, "postgres:serializable", "PostgreSQL", "SERIALIZABLE", EnumSet.of(SER), Map.of(), Certainty.DOCUMENTED,
        List.of(PG_DOCS, HERMITAGE, JEPSEN_PG),
        "Serializable snapshot isolation. Jepsen found G2-item under SERIALIZABLE in 12.3 (a bug, fixed in the"
            + " next minor releases). Strict serializability is not promised.");
    // MySQL (InnoDB). REPEATABLE READ reads a snapshot but updates the latest version: lost updates.
    mysqlFamily(t, "mysql", "MySQL", List.of(MYSQL_DOCS, HERMITAGE, JEPSEN_MYSQL), "");
    mysqlFamily(t, "mariadb", "MariaDB", List.of(MARIADB_DOCS, HERMITAGE, MARIADB_LIST, LOCAL_PROBE),
        "MariaDB shares InnoDB with MySQL; Hermitage tested MySQL, so each MariaDB entry rests on the shared engine.");
    // Oracle: READ COMMITTED and SERIALIZABLE, the latter snapshot isolation.
    put(t, "oracle:read-committed", "Oracle Database", "READ COMMITTED", EnumSet.of(RC),
        Map.of(RA, READ_SKEW, SI, LOST_UPDATE), Certainty.DOCUMENTED, List.of(ORACLE_DOCS, HERMITAGE),
        "Statement-level read consistency.");
    put(t, "oracle:serializable", "Oracle Database", "SERIALIZABLE", EnumSet.of(SI),
        Map.of(SER, WRITE_SKEW + "; Oracle's SERIALIZABLE is snapshot isolation", RR, WRITE_SKEW),
        Certainty.DOCUMENTED, List.of(ORACLE_DOCS, HERMITAGE),
        "Transaction-level read consistency with first-updater-wins: snapshot isolation, not serializability.");
    // SQL Server.
    put(t, "sqlserver:read-uncommitted", "SQL Server", "READ UNCOMMITTED", EnumSet.noneOf(Level.class),
        Map.of(Level.PL2, DIRTY_READ), Certainty.DOCUMENTED, List.of(MSSQL_DOCS, HERMITAGE),
        "Promises no level IsoWatch decides: every anomaly is allowed.");
    put(t, "sqlserver:read-committed", "SQL Server", "READ COMMITTED (locking, the default)", EnumSet.of(RC),
        Map.of(RA, READ_SKEW, SI, LOST_UPDATE), Certainty.DOCUMENTED, List.of(MSSQL_DOCS, HERMITAGE), "");
    put(t, "sqlserver:read-committed-snapshot", "SQL Server", "READ COMMITTED with READ_COMMITTED_SNAPSHOT ON",
        EnumSet.of(RC), Map.of(RA, READ_SKEW, SI, LOST_UPDATE), Certainty.DOCUMENTED, List.of(MSSQL_DOCS, HERMITAGE), "");
    put(t, "sqlserver:repeatable-read", "SQL Server", "REPEATABLE READ", EnumSet.of(RR, RC), Map.of(),
        Certainty.UNCERTAIN, List.of(MSSQL_DOCS, HERMITAGE),
        "Read locks held to commit. Hermitage classifies it as repeatable read (no lost update, no G2-item) but saw"
            + " G-single prevented only in some of its tests, so Adya's PL-2.99 is not settled; phantoms (predicate"
            + " G2) are allowed, which key-value histories cannot show.");
    put(t, "sqlserver:snapshot", "SQL Server", "SNAPSHOT", EnumSet.of(SI), Map.of(RR, WRITE_SKEW, SER, WRITE_SKEW),
        Certainty.DOCUMENTED, List.of(MSSQL_DOCS, HERMITAGE), "");
    put(t, "sqlserver:serializable", "SQL Server", "SERIALIZABLE", EnumSet.of(SER), Map.of(), Certainty.DOCUMENTED,
        List.of(MSSQL_DOCS, HERMITAGE), "");
    // H2: no independent test; the documentation and this project's probe only.
    put(t, "h2:read-uncommitted", "H2", "READ UNCOMMITTED", EnumSet.noneOf(Level.class), Map.of(Level.PL2, "dirty reads"),
        Certainty.UNCERTAIN, List.of(H2_DOCS), "Promises no level IsoWatch decides.");
    put(t, "h2:read-committed", "H2", "READ COMMITTED", EnumSet.of(RC), Map.of(SI, "lost update (" + LOCAL_PROBE + ")"),
        Certainty.UNCERTAIN, List.of(H2_DOCS, LOCAL_PROBE),
        "H2's default. No Hermitage or Jepsen test covers H2: RC rests on its documentation (each statement sees"
            + " committed data) and is not independently established.");
    put(t, "h2:repeatable-read", "H2", "REPEATABLE READ", EnumSet.of(RC), Map.of(), Certainty.UNCERTAIN,
        List.of(H2_DOCS, LOCAL_PROBE),
        "This project's probe saw a lost update rejected (SQLState 40001), but no source checked here says whether"
            + " its reads come from one snapshot: only RC is promised.");
    put(t, "h2:snapshot", "H2", "SNAPSHOT", EnumSet.of(SI), Map.of(RR, "write skew", SER, "write skew"),
        Certainty.UNCERTAIN, List.of(H2_DOCS, LOCAL_PROBE),
        "Snapshot isolation by its name and documentation; the demo's canary runs it. No independent test.");
    put(t, "h2:serializable", "H2", "SERIALIZABLE", EnumSet.of(SI),
        Map.of(SER, "not ensured (an H2 maintainer: it prevents the read phenomena only)"), Certainty.UNCERTAIN,
        List.of(H2_DOCS, H2_LIST, LOCAL_PROBE),
        "An H2 maintainer says SERIALIZABLE prevents dirty, non-repeatable and phantom reads but does not ensure"
            + " equivalence to a serial execution: IsoWatch promises SI (a lost update is rejected, by this"
            + " project's probe) and reports a SER violation as allowed.");
    // CockroachDB.
    put(t, "cockroachdb:read-committed", "CockroachDB", "READ COMMITTED", EnumSet.of(RC),
        Map.of(RA, READ_SKEW, SI, LOST_UPDATE), Certainty.DOCUMENTED, List.of(CRDB_DOCS, HERMITAGE),
        "Available since v23.2; CockroachDB documents it as stronger than PostgreSQL's within one statement.");
    put(t, "cockroachdb:repeatable-read", "CockroachDB", "REPEATABLE READ", EnumSet.of(SI),
        Map.of(RR, WRITE_SKEW, SER, WRITE_SKEW), Certainty.UNCERTAIN, List.of(HERMITAGE, CRDB_DOCS),
        "Hermitage classifies it as snapshot isolation; the level is recent in CockroachDB and its documentation"
            + " was not checked here for the version in use.");
    put(t, "cockroachdb:serializable", "CockroachDB", "SERIALIZABLE (the default)", EnumSet.of(SER),
        Map.of(SSER, "CockroachDB documents serializability, not strict serializability"), Certainty.DOCUMENTED,
        List.of(CRDB_DOCS, HERMITAGE, JEPSEN_CRDB), "");
    // YugabyteDB (YSQL).
    final String ybRc = "Read Committed only with the tserver flag yb_enable_read_committed_isolation=true (else it"
        + " runs as Snapshot, which keeps this promise too).";
    put(t, "yugabytedb:read-committed", "YugabyteDB", "READ COMMITTED", EnumSet.of(RC),
        Map.of(SI, LOST_UPDATE + ", with read committed enabled"), Certainty.DOCUMENTED, List.of(YB_DOCS, HERMITAGE), ybRc);
    put(t, "yugabytedb:read-uncommitted", "YugabyteDB", "READ UNCOMMITTED", EnumSet.of(RC),
        Map.of(SI, LOST_UPDATE + ", with read committed enabled"), Certainty.DOCUMENTED, List.of(YB_DOCS),
        "Maps to Read Committed. " + ybRc);
    put(t, "yugabytedb:repeatable-read", "YugabyteDB", "REPEATABLE READ (Snapshot)", EnumSet.of(SI),
        Map.of(RR, WRITE_SKEW, SER, WRITE_SKEW), Certainty.DOCUMENTED, List.of(YB_DOCS, HERMITAGE), "");
    put(t, "yugabytedb:serializable", "YugabyteDB", "SERIALIZABLE", EnumSet.of(SER), Map.of(), Certainty.DOCUMENTED,
        List.of(YB_DOCS, HERMITAGE), "");
    // TiDB: snapshot isolation advertised as REPEATABLE READ; no SERIALIZABLE.
    put(t, "tidb:repeatable-read", "TiDB", "REPEATABLE READ (Snapshot Isolation)", EnumSet.of(SI),
        Map.of(RR, "write skew", SER, "write skew"), Certainty.DOCUMENTED, List.of(TIDB_DOCS, JEPSEN_TIDB),
        "TiDB documents Snapshot Isolation advertised as REPEATABLE-READ. In pessimistic mode a SELECT ... FOR"
            + " UPDATE reads the latest version. Jepsen found that automatic transaction retry broke it (off by default"
            + " since 3.0).");
    put(t, "tidb:read-committed", "TiDB", "READ COMMITTED", EnumSet.of(RC), Map.of(SI, "lost update"),
        Certainty.UNCERTAIN, List.of(TIDB_DOCS),
        "Pessimistic transactions only; not covered by Hermitage or Jepsen.");
    // SQLite.
    put(t, "sqlite:serializable", "SQLite", "SERIALIZABLE (its only level between connections)", EnumSet.of(SER),
        Map.of(), Certainty.DOCUMENTED, List.of(SQLITE_DOCS),
        "One writer at a time; in WAL mode a reader sees the database as of its start. Shared-cache connections"
            + " with PRAGMA read_uncommitted are outside this promise.");
    return Collections.unmodifiableMap(t);
  }

  private static void mysqlFamily(final Map<String, Promise> t, final String db, final String name,
      final List<String> sources, final String familyNote) {
    final Certainty c = db.equals("mysql") ? Certainty.DOCUMENTED : Certainty.UNCERTAIN;
    final String prefix = familyNote.isEmpty() ? "" : familyNote + " ";
    put(t, db + ":read-uncommitted", name, "READ UNCOMMITTED", EnumSet.noneOf(Level.class),
        Map.of(Level.PL2, DIRTY_READ), c, sources, prefix + "Promises no level IsoWatch decides.");
    put(t, db + ":read-committed", name, "READ COMMITTED", EnumSet.of(RC), Map.of(RA, READ_SKEW, SI, LOST_UPDATE),
        c, sources, prefix + "Each consistent read takes a fresh snapshot.");
    put(t, db + ":repeatable-read", name, "REPEATABLE READ (the default)", EnumSet.of(Level.PL2),
        Map.of(RC, STALE_AFTER_UPDATE, SI, LOST_UPDATE + "; not snapshot isolation", RR, WRITE_SKEW,
            RA, "read skew when the transaction writes (Hermitage G-single: prevented read-only only)"),
        c, withConsistentReads(sources),
        prefix + "Reads come from the transaction's snapshot, writes apply to the latest version, and a"
            + " transaction that updates a row then reads that row's latest version but other rows from its older"
            + " snapshot (InnoDB documents this): that breaks IsoWatch's RC (Biswas-Enea), so only Adya's PL-2"
            + " (no G0, no G1) is promised and an RC violation is reported as allowed. Jepsen observed violations of"
            + " internal consistency and of monotonic atomic view under it and judges it only somewhat stronger than"
            + " read committed. Until 2026-11 this profile promised RC (marked uncertain).");
    put(t, db + ":serializable", name, "SERIALIZABLE", EnumSet.of(SER), Map.of(), c, sources,
        prefix + "Plain reads become locking reads when autocommit is off. Jepsen found AWS RDS MySQL clusters"
            + " violating serializability at SERIALIZABLE.");
  }

  /** The sources with MySQL's manual, which documents InnoDB's consistent reads for MariaDB too. */
  private static List<String> withConsistentReads(final List<String> sources) {
    if (sources.contains(MYSQL_DOCS)) {
      return sources;
    }
    final List<String> out = new ArrayList<>(sources);
    out.add(1, MYSQL_DOCS);
    return List.copyOf(out);
  }

  private static Promise entry(final String spec, final String db, final String named, final Set<Level> guarantees,
      final Map<Level, String> notGiven, final Certainty certainty, final List<String> sources, final String note) {
    return new Promise(spec, db, named, guarantees, notGiven, certainty, sources, note);
  }

  private static void put(final Map<String, Promise> t, final String spec, final String db, final String named,
      final Set<Level> guarantees, final Map<Level, String> notGiven, final Certainty certainty,
      final List<String> sources, final String note) {
    t.put(spec, entry(spec, db, named, guarantees, notGiven, certainty, sources, note));
  }
}
