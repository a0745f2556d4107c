#!/usr/bin/env bash
# Benchmarks the IsoWatch checker core: txn/s per level and heap bytes per transaction.
#
#   scripts/bench-core.sh                      # 10^6 generated txns, SSER, SER and SI, 1 warmup + 3 runs
#   scripts/bench-core.sh --txns 100000 --levels SER --repeat 5
#   scripts/bench-core.sh --file history.jsonl # also times parsing
#   scripts/bench-core.sh --json > bench.json  # machine header goes to stderr then
#   scripts/bench-core.sh --engine online      # the incremental engine (OnlineChecker.check)
#
# Builds the isowatch command (cli) when its jar is missing or older than the sources. Environment:
#   BENCH_HEAP       heap size, fixed (-Xms = -Xmx) so resizing does not add noise (default 4g)
#   BENCH_JVM_OPTS   replaces all JVM options below
#
# JVM options and why:
#   -XX:+UseParallelGC -XX:ParallelGCThreads=1  stop-the-world collection on one thread: the
#       checker is single-threaded, so the measured wall time is one core's work (G1 would run
#       concurrent marking on the second core and flatter the figure).
#   -Xmn256m  a bounded young generation: the pools' peak usage counts uncollected garbage, and
#       a young generation of a third of the heap would dominate "peak B/tx"; 256 MiB caps that
#       garbage at 256 B/txn for 10^6 txns ("live B/tx", measured after collections, has none).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/isowatch-jar.sh
source scripts/lib/isowatch-jar.sh
ensure_isowatch_jar
JVM_OPTS="$(bench_jvm_opts 4g -Xmn256m)"

header() {
  echo "== machine"
  echo "date (UTC): $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo || echo "model name: unknown"
  grep -m1 MemTotal /proc/meminfo || true
  java -version 2>&1
  echo "jvm options: $JVM_OPTS"
  echo "bench args: $*"
  echo "== bench"
}

json=false
for a in "$@"; do
  [[ "$a" == "--json" ]] && json=true
done
if $json; then
  header "$@" >&2
else
  header "$@"
fi

exec_isowatch_class io.isowatch.cli.Main bench "$@"
