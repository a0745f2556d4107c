// Same-JVM A/B of the engine's self-cuts (docs/benchmarks.md, "stream150k2"): loads two builds of
// the core module in two class loaders, generates the same history in each (the generator's
// defaults, seed 42: what scripts/bench-segmentation.sh streams), then alternates one streamed run
// of each per round through an OnlineChecker with a transaction horizon (grace 1 ms, as the
// segmentation benchmark), recording the feeding thread's CPU time, the engine's own cut time
// (OnlineChecker.pruneSeconds) and the result's verdicts and anomaly counts, which must be equal.
//
//   java -Xms3g -Xmx3g -XX:+UseParallelGC -XX:ParallelGCThreads=1 scripts/bench-cut-ab.java \
//     BASE_CORE.jar NEW_CORE.jar TXNS HORIZON ROUNDS [CUT_FACTOR [PRUNE_EVERY]]
// With PRUNE_EVERY (and a CUT_FACTOR that never cuts by itself, e.g. 64) the cuts are asked for
// every PRUNE_EVERY transactions and cutS is the CPU time of those calls alone: the cut in isolation.
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.*;
import java.util.function.Consumer;

class BenchCutAb {
  static final class Side {
    final String name; final ClassLoader cl; final List<Object> txns = new ArrayList<>();
    Side(String name, ClassLoader cl) { this.name = name; this.cl = cl; }
    void generate(long n) throws Exception {
      Class<?> gc = cl.loadClass("io.isowatch.core.gen.GeneratorConfig");
      Object cfg = gc.getMethod("defaults").invoke(null);
      cfg = gc.getMethod("withSeed", long.class).invoke(cfg, 42L);
      cfg = gc.getMethod("withTransactions", long.class).invoke(cfg, n);
      Class<?> sink = cl.loadClass("io.isowatch.core.gen.TransactionSink");
      Object proxy = java.lang.reflect.Proxy.newProxyInstance(cl, new Class<?>[] {sink}, (p, m, a) -> {
        if (m.getDeclaringClass() == Object.class) { return m.invoke(this, a); }
        txns.add(a[0]); return null; });
      cl.loadClass("io.isowatch.core.gen.MtHistoryGenerator").getMethod("generate", gc, sink).invoke(null, cfg, proxy);
    }
    String[] run(long horizon, double factor, long pruneEvery, ThreadMXBean mx) throws Exception {
      Class<?> oc = cl.loadClass("io.isowatch.core.check.CheckOptions");
      Class<?> hc = cl.loadClass("io.isowatch.core.online.Horizon");
      Class<?> ooc = cl.loadClass("io.isowatch.core.online.OnlineOptions");
      Object h = hc.getMethod("ofTransactions", long.class).invoke(null, horizon);
      h = hc.getMethod("withCutFactor", double.class).invoke(h, factor);
      Object oo = ooc.getConstructor(long.class, boolean.class).newInstance(1_000L, false);
      oo = ooc.getMethod("withHorizon", hc).invoke(oo, h);
      Class<?> cc = cl.loadClass("io.isowatch.core.online.OnlineChecker");
      Object c = cc.getConstructor(oc, ooc).newInstance(oc.getMethod("defaults").invoke(null), oo);
      Method accept = cc.getMethod("accept", cl.loadClass("io.isowatch.core.history.Transaction"));
      Method prune = cc.getMethod("prune");
      long cpu0 = mx.getCurrentThreadCpuTime(); long w0 = System.nanoTime();
      long pruneCpu = 0; long i = 0;
      for (Object t : txns) {
        accept.invoke(c, t);
        if (pruneEvery > 0 && ++i % pruneEvery == 0) {
          long p0 = mx.getCurrentThreadCpuTime(); prune.invoke(c); pruneCpu += mx.getCurrentThreadCpuTime() - p0;
        }
      }
      cc.getMethod("flush").invoke(c);
      Object result = cc.getMethod("result").invoke(c);
      long cpu = mx.getCurrentThreadCpuTime() - cpu0; long wall = System.nanoTime() - w0;
      double cutS = pruneEvery > 0 ? pruneCpu / 1e9 : (double) cc.getMethod("pruneSeconds").invoke(c);
      long cuts = (long) cc.getMethod("cuts").invoke(c);
      Object verdicts = result.getClass().getMethod("verdicts").invoke(result);
      Object anomalies = result.getClass().getMethod("anomalies").invoke(result);
      return new String[] {String.valueOf(cpu / 1e9), String.valueOf(wall / 1e9), String.valueOf(cutS),
          String.valueOf(cuts), new TreeMap<>(((Map<?, ?>) verdicts).entrySet().stream().collect(
              java.util.stream.Collectors.toMap(e -> e.getKey().toString(), e -> e.getValue().toString())))
              + " anomalies=" + ((List<?>) anomalies).size()};
    }
  }

  static ClassLoader loader(String coreJar) throws Exception {
    return new URLClassLoader(new URL[] {new File(coreJar).toURI().toURL()}, BenchCutAb.class.getClassLoader());
  }

  public static void main(String[] a) throws Exception {
    long n = Long.parseLong(a[2]); long horizon = Long.parseLong(a[3]); int rounds = Integer.parseInt(a[4]);
    double factor = a.length > 5 ? Double.parseDouble(a[5]) : 2.0;
    // PRUNE_EVERY > 0: cuts on request (OnlineChecker.prune) every that many transactions, with the
    // cut factor set high enough that the engine never cuts by itself; cutS is then their thread CPU.
    long pruneEvery = a.length > 6 ? Long.parseLong(a[6]) : 0;
    Side base = new Side("base", loader(a[0])); Side neu = new Side("new", loader(a[1]));
    base.generate(n); neu.generate(n);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    System.out.printf("txns=%d horizon=%d factor=%.1f rounds=%d (round 0 warms up)%n", n, horizon, factor, rounds);
    Map<String, List<Double>> cpu = new TreeMap<>(); Map<String, List<Double>> cut = new TreeMap<>();
    String baseResult = null;
    for (int r = 0; r <= rounds; r++) {
      for (Side s : (r % 2 == 0 ? List.of(base, neu) : List.of(neu, base))) {
        System.gc();
        String[] x = s.run(horizon, factor, pruneEvery, mx);
        System.out.printf("round=%d side=%s cpuS=%s wallS=%s cutS(wall, or CPU with PRUNE_EVERY)=%s cuts=%s %s%n", r, s.name, x[0], x[1], x[2], x[3], x[4]);
        if (baseResult == null) { baseResult = x[4]; }
        if (!baseResult.equals(x[4])) { throw new AssertionError("results differ: " + baseResult + " vs " + x[4]); }
        if (r > 0) {
          cpu.computeIfAbsent(s.name, k -> new ArrayList<>()).add(Double.parseDouble(x[0]));
          cut.computeIfAbsent(s.name, k -> new ArrayList<>()).add(Double.parseDouble(x[2]));
        }
      }
    }
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < cpu.get("new").size(); i++) { ratios.add(cpu.get("new").get(i) / cpu.get("base").get(i)); }
    System.out.printf("median cpuS base=%.2f new=%.2f; median cutS base=%.2f new=%.2f; per-round new/base cpu ratios %s (median %.2f)%n",
        med(cpu.get("base")), med(cpu.get("new")), med(cut.get("base")), med(cut.get("new")), ratios, med(ratios));
  }

  static double med(List<Double> xs) {
    double[] v = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
