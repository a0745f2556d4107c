#!/usr/bin/env bash
# Benchmarks the streaming checker (`isowatch run`) end to end on this machine (issue 3 item 10):
# a real Kafka 4.3.1 broker (scripts/kafka.sh) and the real Apicurio registry (scripts/registry.sh)
# as child processes, the checker in a child JVM with exactly-once v2, and a driver
# (io.isowatch.cli.bench.StreamingBenchmark, test scope) that produces, measures and prints a
# Markdown table on stdout.
#
#   scripts/bench-streaming.sh                         # everything: throughput (1 and 6 tenants), latency (1K, 10K txn/s)
#   scripts/bench-streaming.sh --phases throughput --tenants 1 --txns 200000
#   scripts/bench-streaming.sh --phases latency --rates 10000 --duration 30 --grace-ms 100
#   scripts/bench-streaming.sh --checker-prop kafka.commit.interval.ms=200   # any checker key (repeatable)
#   scripts/bench-streaming.sh --phases throughput --tenants 6 --instances 1,2 --checker-prop kafka.num.stream.threads=2
#                                                      # 6 tenants on 1, then 2 instances of one application (issue 13 item 3)
#   scripts/bench-streaming.sh --phases soak                                    # the 5x10^7 soak (hours; issue 6 item 4)
#   scripts/bench-streaming.sh --phases soak --soak-txns 300000 --soak-off-txns 100000 --soak-sample-seconds 5 \
#     --soak-anomaly-every 50000                                                # a small validation run (minutes)
#
# Before the first phase the driver makes the broker create its internal topics (consumer offsets,
# transaction state), which a broker just started would otherwise make the first phase wait for.
# Each throughput phase reports the checker's start (process start -> RUNNING -> first committed input
# -> all committed) beside its rates.
#
# Driver options (defaults in brackets): --phases [throughput,latency] --txns [300000] --tenants [1,6]
#   --instances [1]: checker processes of one application in each throughput phase (same machine, same
#   settings, own state directory each); the figures are summed over them, with the cores the whole
#   machine, the checkers and their Kafka Streams threads kept busy (what limits the phase)
#   --rates [1000,10000] --duration seconds per rate [30] --warmup seconds left out of the latency
#   figures [5] --grace-ms check.grace.ms of the latency phases [100] --label [run]
#   --checker-jvm "JVM options of the checker" [-Xmx1g]; {dir} is replaced by the phase's directory,
#   e.g. --checker-jvm "-Xmx1g -XX:StartFlightRecording=filename={dir}/checker.jfr,settings=profile"
#   --variant LABEL=CLASSPATH (repeatable): checker builds to compare; each phase runs every variant
#   back to back, so that they meet similar load. Without it: this checkout's build, labelled --label.
#   e.g. --variant 'before=/tmp/old/isowatch.jar:/tmp/old/lib/*' --variant "after=$PWD/cli/target/isowatch.jar:$PWD/cli/target/lib/*"
#   --variant-prop LABEL:KEY=VALUE (repeatable): a checker setting of variant LABEL only (after --checker-prop),
#   e.g. one build twice: --variant "f2=$cp" --variant "f4=$cp" --variant-prop f4:check.horizon.cut.factor=4
#   --variant-jvm LABEL:OPTIONS (repeatable): JVM options of variant LABEL's checker only (after --checker-jvm),
#   e.g. --variant "c1=$cp" --variant-jvm "c1:-XX:TieredStopAtLevel=1"
#
# Soak options (phase `soak`, not in the default phases): one tenant's MT workload (20 sessions, 1,000
#   keys, simulated SER) produced while the checker runs, start/end times and record timestamps taken at
#   send time (stream time follows real time), grace --grace-ms [100]; the checker also gets
#   -XX:+ExitOnOutOfMemoryError. One row every --soak-sample-seconds [30] on stdout (Markdown, as it comes)
#   and in <work>/bench-soak-<on|off>-<ms>/soak.csv, a chart soak.png and the published anomalies
#   anomalies.txt at the end; the run's internal topics and state directory are deleted after it.
#   --soak-segmentation on|off|both [both]: on = horizon, off = none; both = an off run of --soak-off-txns
#     first, then the on run, and their txn/s over the same window (10%→90% of what the off run committed)
#   --soak-txns transactions of the on run (or of the single run) [50000000]
#   --soak-off-txns transactions of the off run with `both` [300000]; without a horizon the heap fills:
#     the run stops at its count, when the checker exits, or after --soak-stall-seconds [300] without progress
#   --soak-max-lag most transactions produced ahead of the checker's committed offset [2000000]
#   --soak-horizon-txns check.horizon.transactions of the on run [100000]; 0: the checker's default (20000)
#   --soak-prune-ms check.prune.interval.ms of the on run (stream time) [10000]; 0: the checker's default (60000)
#   --soak-restart true: after the on run, restart its checker on its state directory, then on an empty one
#     (stores restored from the changelogs), and report the state dir and changelog sizes before, the time to
#     RUNNING and to the tenant's engine rebuilt, and the rebuild's log line [false]
#   --soak-anomaly-every after every N workload transactions, a 20-transaction chunk of its own sessions and
#     keys with one injected lost update [1000000]; 0: none
#   --soak-input-retention-mb retention.bytes of the input topic, so that the broker's disk stays bounded [2048];
#     0: keep everything (5x10^7 transactions are about 4 GiB of input)
#   --soak-inject-at fractions of --soak-txns where the on run injects one instance of each kind [0.1,0.5,0.999]
#   --soak-inject-kinds the kinds [LostUpdate,ThinAirRead,WriteSkew,StaleRead] (issue 10 item 8; blank: none): any
#     generator pattern (the core's own minimal pattern on fresh keys and sessions), or StaleRead (a fresh session
#     reads a background value written and overwritten near the start: STALE_READ_BEYOND_HORIZON finding plus a
#     StaleReadBeyondHorizon anomaly). At the end the on run compares what was published (anomalies topic, the
#     final verdict's findings) with what it injected (chunks included): each once under its name, nothing else
#     but HORIZON_PRUNED. It prints a table and PASS/FAIL, and on FAIL (or a run short of its target) this
#     script exits non-zero. Also printed: a flatness table (largest value, first half vs second half of the run).
#     The CSV also gets every isowatch_retired_* series of /metrics and every changelog's size.
#
# Environment: BENCH_WORK [target dir of this script's run: cli/target/bench-streaming; emptied at the start, so do not
#   redirect output into it], BENCH_DRIVER_HEAP
#   [2g: the driver's -Xmx; 2x10^6 throughput transactions ran with 8g, 2g is too little],
#   BENCH_KAFKA_PORT [19092], BENCH_REGISTRY_PORT [18081].
# The broker and the registry are stopped when the script exits, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# The driver (io.isowatch.cli.bench, cli's tests) runs from the test classes that package compiles.
# shellcheck source=lib/isowatch-jar.sh
source scripts/lib/isowatch-jar.sh
ensure_isowatch_jar
jar=cli/target/isowatch.jar
test_classes="$root/cli/target/test-classes:$root/streams-app/target/test-classes:$root/core/target/test-classes"

work="${BENCH_WORK:-$root/cli/target/bench-streaming}"
rm -rf "$work"
mkdir -p "$work"
export ISOWATCH_RUN_DIR="$work/run"
export KAFKA_PORT="${BENCH_KAFKA_PORT:-19092}"
export KAFKA_CONTROLLER_PORT="$((KAFKA_PORT + 1))"
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms512m -Xmx1g}"
export REGISTRY_PORT="${BENCH_REGISTRY_PORT:-18081}"

cleanup() {
  scripts/registry.sh stop >&2 || true
  scripts/kafka.sh stop >&2 || true
}
trap cleanup EXIT

{
  echo "== machine"
  echo "date (UTC): $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- core/src/main schemas/src/main streams-app/src/main || echo ' (with uncommitted changes)')"
  echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo || echo "model name: unknown"
  grep -m1 MemTotal /proc/meminfo || true
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  java -version 2>&1 | awk "NR == 1"
  echo "bench args: $*"
} >&2

scripts/kafka.sh start >&2
scripts/registry.sh start >&2

java "-Xmx${BENCH_DRIVER_HEAP:-2g}" -Djava.awt.headless=true -cp "$test_classes:$root/$jar:$root/cli/target/lib/*" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.isowatch.cli.bench.StreamingBenchmark \
  --bootstrap "127.0.0.1:$KAFKA_PORT" --registry "http://127.0.0.1:$REGISTRY_PORT" --work "$work" \
  --checker-cp "$root/$jar:$root/cli/target/lib/*" "$@"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
