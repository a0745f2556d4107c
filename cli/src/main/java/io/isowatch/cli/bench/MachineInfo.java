package io.isowatch.cli.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine and JVM a benchmark ran on, so figures can be compared honestly.
 *
 * @param processors processors available to the JVM
 * @param cpuModel the first {@code model name} of /proc/cpuinfo, or {@code unknown}
 * @param physicalMemoryBytes total physical memory, or -1 if unknown
 * @param java the Java runtime version
 * @param vm the VM name and version
 * @param maxHeapBytes the maximum heap
 * @param collectors the garbage collectors in use
 * @param jvmArguments the JVM's command-line arguments
 */
public record MachineInfo(
    int processors,
    String cpuModel,
    long physicalMemoryBytes,
    String java,
    String vm,
    long maxHeapBytes,
    List<String> collectors,
    List<String> jvmArguments) {

  public static MachineInfo current() {
    final long physical = ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getTotalMemorySize() : -1;
    return new MachineInfo(Runtime.getRuntime().availableProcessors(), readCpuModel(), physical,
        System.getProperty("java.runtime.version"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
        Runtime.getRuntime().maxMemory(),
        ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
        ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  private static String readCpuModel() {
    final Path cpuinfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuinfo)) {
      return "unknown";
    }
    try (Stream<String> lines = Files.lines(cpuinfo)) {
      return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst().orElse("unknown");
    } catch (final IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
