// Differential check of two core builds on list-append histories (docs/benchmarks.md, "lafast6"):
// loads both in two class loaders and compares ListAppendCheck.check's whole result (verdicts,
// reasons, anomalies with their cycles and explanations, findings, statistics; the seconds left
// out) on generated histories (ListAppendHistoryGenerator, serial and SI databases, several key
// counts and seeds) and on random small histories (the oracle tests' ListAppendHistories, with
// every anomaly kind), for several level sets. Prints each difference; exits 1 when there is one.
//
//   java scripts/listappend-diff-vs-base.java BASE_CORE BASE_CORE_TESTS NEW_CORE NEW_CORE_TESTS LIB_DIR RANDOM_COUNT
//   (CORE: the core jar or classes dir; CORE_TESTS: its test jar or test-classes dir; LIB_DIR:
//   cli/target/lib of a packaged build, its core-*.jar left out.)
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.*;

class ListAppendDiffVsBase {
  static final class Side {
    final ClassLoader cl;
    Side(ClassLoader cl) { this.cl = cl; }
    Class<?> c(String n) throws Exception { return cl.loadClass(n); }
    Object generated(long seed, long n, int sessions, int keys, String sim, int perKey) throws Exception {
      Class<?> gc = c("io.isowatch.core.gen.ListAppendHistoryGenerator$Config");
      Object level = c("io.isowatch.core.gen.SimulatedLevel").getMethod("valueOf", String.class).invoke(null, sim);
      Object cfg = gc.getConstructors()[0].newInstance(seed, n, sessions, keys, 4, 0.5, perKey, level);
      Object gh = c("io.isowatch.core.gen.ListAppendHistoryGenerator").getMethod("generateWithSummary", gc).invoke(null, cfg);
      return gh.getClass().getMethod("history").invoke(gh);
    }
    Object random(Random r) throws Exception {
      return c("io.isowatch.core.oracle.ListAppendHistories").getMethod("random", Random.class).invoke(null, r);
    }
    String check(Object history, List<String> levels) throws Exception {
      Class<?> lc = c("io.isowatch.core.check.Level");
      Set<Object> set = new HashSet<>();
      for (String l : levels) set.add(lc.getMethod("valueOf", String.class).invoke(null, l));
      Class<?> oc = c("io.isowatch.core.check.CheckOptions");
      Object o = oc.getMethod("defaults").invoke(null);
      if (!levels.isEmpty()) o = oc.getMethod("withLevels", Set.class).invoke(o, set);
      Method m = c("io.isowatch.core.listappend.ListAppendCheck").getMethod("check", c("io.isowatch.core.history.History"), oc);
      Object r = m.invoke(null, history, o);
      Class<?> rc = r.getClass();
      Object stats = rc.getMethod("stats").invoke(r);
      stats = stats.getClass().getMethod("withSeconds", double.class).invoke(stats, 0.0);
      return "verdicts=" + norm(rc.getMethod("verdicts").invoke(r)) + "\nreasons=" + norm(rc.getMethod("reasons").invoke(r))
          + "\nanomalies=" + norm(rc.getMethod("anomalies").invoke(r)) + "\nfindings=" + norm(rc.getMethod("findings").invoke(r))
          + "\nstats=" + norm(stats);
    }
  }

  /**
   * A value's text with every map sorted by key (the results hold Map.copyOf maps, whose order
   * differs between class loaders); records component by component, lists element by element.
   */
  static String norm(Object v) throws Exception {
    if (v instanceof Map<?, ?> m) {
      TreeMap<String, String> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) sorted.put(String.valueOf(e.getKey()), norm(e.getValue()));
      return sorted.toString();
    }
    if (v instanceof List<?> l) {
      List<String> out = new ArrayList<>();
      for (Object o : l) out.add(norm(o));
      return out.toString();
    }
    if (v != null && v.getClass().isRecord()) {
      StringBuilder sb = new StringBuilder(v.getClass().getSimpleName()).append('[');
      for (var c : v.getClass().getRecordComponents()) {
        c.getAccessor().setAccessible(true);
        sb.append(c.getName()).append('=').append(norm(c.getAccessor().invoke(v))).append(", ");
      }
      return sb.append(']').toString();
    }
    return String.valueOf(v);
  }

  static Side side(File lib, String core, String tests) throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(new File(core).toURI().toURL());
    urls.add(new File(tests).toURI().toURL());
    for (File f : lib.listFiles()) if (f.getName().endsWith(".jar") && !f.getName().startsWith("core-")) urls.add(f.toURI().toURL());
    return new Side(new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader()));
  }

  public static void main(String[] a) throws Exception {
    Side base = side(new File(a[4]), a[0], a[1]);
    Side neu = side(new File(a[4]), a[2], a[3]);
    int randomCount = Integer.parseInt(a[5]);
    List<List<String>> levelSets = List.of(List.of(), List.of("SER"), List.of("SI"), List.of("SSER"),
        List.of("SSER", "SER", "SI"), List.of("SER", "PL2", "RR", "RC", "CC"));
    int compared = 0, differ = 0;
    for (String sim : List.of("SER", "SI")) {
      for (int keys : new int[] {3, 10, 50, 1000}) {
        for (long seed = 1; seed <= 3; seed++) {
          Object hb = base.generated(seed, 3000, 10, keys, sim, keys == 1000 ? 32 : 6);
          Object hn = neu.generated(seed, 3000, 10, keys, sim, keys == 1000 ? 32 : 6);
          for (List<String> ls : levelSets) {
            String rb = base.check(hb, ls), rn = neu.check(hn, ls);
            compared++;
            if (!rb.equals(rn)) {
              differ++;
              System.out.println("DIFF generated sim=" + sim + " keys=" + keys + " seed=" + seed + " levels=" + ls
                  + "\n--- base\n" + rb + "\n--- new\n" + rn);
            }
          }
        }
      }
    }
    Random rb0 = new Random(Long.getLong("seed", 17)), rn0 = new Random(Long.getLong("seed", 17));
    for (int i = 0; i < randomCount; i++) {
      Object hb = base.random(rb0), hn = neu.random(rn0);
      List<String> ls = levelSets.get(i % levelSets.size());
      String b = base.check(hb, ls), n = neu.check(hn, ls);
      compared++;
      if (!b.equals(n)) {
        differ++;
        if (differ < 20) System.out.println("DIFF random " + i + " levels=" + ls + "\n--- base\n" + b + "\n--- new\n" + n);
      }
    }
    System.out.println(compared + " results compared, " + differ + " differ");
    System.exit(differ == 0 ? 0 : 1);
  }
}
