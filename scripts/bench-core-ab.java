// Same-JVM A/B of the checker core (docs/benchmarks.md, "enginefast"): loads two builds of the core
// module in two class loaders, generates the same history in each (bench's defaults: 20 sessions,
// 1,000 keys, seed 1), warms each up once, then alternates one check of each per round, recording
// wall time and the checking thread's CPU time. Meant for a loaded machine, where separate runs
// minutes apart are not comparable.
// With -Dworkload=list-append, the history of `bench --workload list-append` instead ("lafast5"; it was
// scripts/bench-listappend-ab.java): Elle's defaults, 20 sessions, 1,000 active keys, 1-4 ops, read
// ratio 0.5, 32 appends per key, seed 1, a database simulated at -Dsim=LEVEL (SER by default).
//
//   java -Xms6g -Xmx6g -Xmn256m -XX:+UseParallelGC -XX:ParallelGCThreads=1 [-Dworkload=list-append] \
//     scripts/bench-core-ab.java BASE_CORE.jar_or_classes NEW_CORE.jar_or_classes LIB_DIR TXNS ROUNDS LEVEL...
//   (LIB_DIR: cli/target/lib of a packaged build; its core-*.jar is left out.)
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.*;

/** Same-JVM A/B of two core builds. */
class BenchCoreAb {
  static final class Side {
    final String name; final ClassLoader cl; Object history; Object levelEnum; Method check; Object opts; Method verdicts;
    Side(String name, ClassLoader cl) { this.name = name; this.cl = cl; }
    void generate(long n) throws Exception {
      if ("list-append".equals(System.getProperty("workload", "mt"))) {
        Class<?> gc = cl.loadClass("io.isowatch.core.gen.ListAppendHistoryGenerator$Config");
        Class<?> sl = cl.loadClass("io.isowatch.core.gen.SimulatedLevel");
        Object sim = sl.getMethod("valueOf", String.class).invoke(null, System.getProperty("sim", "SER"));
        Object cfg = gc.getConstructors()[0].newInstance(1L, n, 20, 1000, 4, 0.5, 32, sim);
        Object gh = cl.loadClass("io.isowatch.core.gen.ListAppendHistoryGenerator").getMethod("generateWithSummary", gc).invoke(null, cfg);
        history = gh.getClass().getMethod("history").invoke(gh);
        return;
      }
      Class<?> gc = cl.loadClass("io.isowatch.core.gen.GeneratorConfig");
      Object cfg = gc.getMethod("defaults").invoke(null);
      cfg = gc.getMethod("withTransactions", long.class).invoke(cfg, n);
      cfg = gc.getMethod("withSessions", int.class).invoke(cfg, 20);
      cfg = gc.getMethod("withKeys", int.class).invoke(cfg, 1000);
      cfg = gc.getMethod("withSeed", long.class).invoke(cfg, 1L);
      Object gh = cl.loadClass("io.isowatch.core.gen.MtHistoryGenerator").getMethod("generateWithSummary", gc).invoke(null, cfg);
      history = gh.getClass().getMethod("history").invoke(gh);
    }
    void level(String lv) throws Exception {
      Class<?> lc = cl.loadClass("io.isowatch.core.check.Level");
      levelEnum = lc.getMethod("valueOf", String.class).invoke(null, lv);
      Class<?> oc = cl.loadClass("io.isowatch.core.check.CheckOptions");
      Object o = oc.getMethod("defaults").invoke(null);
      opts = oc.getMethod("withLevels", Set.class).invoke(o, Set.of(levelEnum));
      Class<?> hc = cl.loadClass("io.isowatch.core.history.History");
      check = cl.loadClass("io.isowatch.core.online.OnlineChecker").getMethod("check", hc, oc);
    }
    String run() throws Exception {
      Object r = check.invoke(null, history, opts);
      Map<?, ?> v = (Map<?, ?>) r.getClass().getMethod("verdicts").invoke(r);
      return String.valueOf(v.get(levelEnum)) + " " + r.toString().length();
    }
  }

  public static void main(String[] a) throws Exception {
    // args: baseCoreJar newCoreDir libDir txns rounds level...
    List<URL> libs = new ArrayList<>();
    for (File f : new File(a[2]).listFiles()) if (f.getName().endsWith(".jar") && !f.getName().startsWith("core-")) libs.add(f.toURI().toURL());
    List<URL> bu = new ArrayList<>(libs); bu.add(0, new File(a[0]).toURI().toURL());
    List<URL> nu = new ArrayList<>(libs); nu.add(0, new File(a[1]).toURI().toURL());
    Side base = new Side("base", new URLClassLoader(bu.toArray(new URL[0]), ClassLoader.getPlatformClassLoader()));
    Side neu = new Side("new", new URLClassLoader(nu.toArray(new URL[0]), ClassLoader.getPlatformClassLoader()));
    long n = Long.parseLong(a[3]); int rounds = Integer.parseInt(a[4]);
    base.generate(n); neu.generate(n);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int li = 5; li < a.length; li++) {
      String lv = a[li];
      base.level(lv); neu.level(lv);
      // warm-up both
      System.out.println(lv + " warm base " + base.run() + " / new " + neu.run());
      double[] wb = new double[rounds], wn = new double[rounds], cb = new double[rounds], cn = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        boolean baseFirst = r % 2 == 0;
        for (int k = 0; k < 2; k++) {
          Side s = (k == 0) == baseFirst ? base : neu;
          System.gc();
          long w0 = System.nanoTime(), c0 = mx.getCurrentThreadCpuTime();
          String res = s.run();
          double w = (System.nanoTime() - w0) / 1e9, c = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
          if (s == base) { wb[r] = w; cb[r] = c; } else { wn[r] = w; cn[r] = c; }
          System.out.printf("%s round %d %s wall %.3f cpu %.3f %s%n", lv, r, s.name, w, c, res);
        }
      }
      double gw = 0, gc = 0;
      for (int r = 0; r < rounds; r++) { gw += Math.log(wn[r] / wb[r]); gc += Math.log(cn[r] / cb[r]); }
      Arrays.sort(wb); Arrays.sort(wn); Arrays.sort(cb); Arrays.sort(cn);
      System.out.printf("%s SUMMARY new/base geomean wall %.3f cpu %.3f | best wall base %.3f new %.3f (%.3f) | best cpu base %.3f new %.3f (%.3f) | median cpu base %.3f new %.3f%n",
          lv, Math.exp(gw / rounds), Math.exp(gc / rounds), wb[0], wn[0], wn[0] / wb[0], cb[0], cn[0], cn[0] / cb[0], cb[rounds / 2], cn[rounds / 2]);
    }
  }
}
