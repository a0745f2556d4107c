#!/usr/bin/env bash
# Benchmarks the search of version orders left open by blind writes (issue 14, item 3) on generated
# rw-register histories in the style of PolySI's benchmarks (docs/benchmarks.md, "Blind writes"):
# `isowatch generate --workload rw-register`, then `isowatch bench --file` per level (parsing, the
# engine and the search, each level on its own, 1 warmup + 3 measured runs).
#
#   scripts/bench-blind-writes.sh                 # 10^4 and 10^5 transactions, serial and SI databases
#   scripts/bench-blind-writes.sh 10000           # one size
#
# Workload: 20 sessions, 15 operations per transaction, 50 % reads, writes blind, uniform keys:
# 1,000 keys at 10^4 transactions, 10,000 at 10^5 (about 75 writers per key either way). Files go to
# BENCH_WORK (default target/bench-blind-writes). JVM options as in bench-core.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/isowatch-jar.sh
source scripts/lib/isowatch-jar.sh
ensure_isowatch_jar
JVM_OPTS="$(bench_jvm_opts "${BENCH_HEAP:-6g}" -Xmn256m)"
WORK="${BENCH_WORK:-target/bench-blind-writes}"
mkdir -p "$WORK"

echo "== machine"
echo "date (UTC): $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "nproc: $(nproc)"
grep -m1 'model name' /proc/cpuinfo || echo "model name: unknown"
grep -m1 MemTotal /proc/meminfo || true
java -version 2>&1 | head -1
echo "jvm options: $JVM_OPTS"

run_isowatch() {
  # shellcheck disable=SC2086 # JVM_OPTS is a list of options on purpose
  java $JVM_OPTS -cp "cli/target/isowatch.jar:cli/target/lib/*" io.isowatch.cli.Main "$@"
}

sizes=("${@:-10000 100000}")
for n in ${sizes[*]}; do
  keys=$(( n / 10 ))
  for db in ser si; do
    file="$WORK/rw-$db-$n.jsonl"
    run_isowatch generate --workload rw-register --txns "$n" --sessions 20 --keys "$keys" --ops 15 \
      --read-ratio 0.5 --level "$db" --seed 1 --out "$file" > /dev/null
    echo "== $n transactions, $keys keys, simulated $db database ($file)"
    run_isowatch bench --file "$file" --levels SI,SER,SSER --warmup 1 --repeat 3
  done
done
