#!/usr/bin/env bash
# Segmentation benchmark (docs/benchmarks.md, "Segmentation"): generated histories streamed through
# the online engine (grace 1 ms), with and without a horizon.
#
#   scripts/bench-segmentation.sh throughput 1000000 100000 3   # txns, horizon, repeats (alternating on/off)
#   scripts/bench-segmentation.sh soak 50000000 100000 5000000  # txns, horizon, sample every N txns
#
# Environment: BENCH_HEAP (default 2g; the soak also runs with -Xmx256m, see docs/benchmarks.md),
# BENCH_JVM_OPTS replaces the JVM options. Builds the isowatch command (cli) when its jar is missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/isowatch-jar.sh
source scripts/lib/isowatch-jar.sh
ensure_isowatch_jar
JVM_OPTS="$(bench_jvm_opts 2g)"
echo "date (UTC): $(date -u +%Y-%m-%dT%H:%M:%SZ) nproc: $(nproc) $(grep -m1 'model name' /proc/cpuinfo || true)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) jvm: $JVM_OPTS"
exec_isowatch_class io.isowatch.cli.bench.SegmentationBenchmark "$@"
