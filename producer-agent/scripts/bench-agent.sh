#!/usr/bin/env bash
# Measures the agent's throughput and abort rate per database and isolation level, and prints
# one Markdown table row per run (see docs/benchmarks.md (Part 2)).
#
# Usage: [BENCH_CONFIGS="db:level …"] [SESSIONS=8] [KEYS=100] [TXNS=10000] [DIST=uniform] \
#        [SHAPES=paper] producer-agent/scripts/bench-agent.sh [REPEATS] [-- extra agent options]
#   e.g. producer-agent/scripts/bench-agent.sh 3
#        BENCH_CONFIGS="postgresql:serializable" SESSIONS=32 producer-agent/scripts/bench-agent.sh 2
# Run r uses --seed r. Needs the local PostgreSQL and MariaDB of RECIPES.md. Writes no history
# (--check keeps it in memory to print the verdicts).
set -euo pipefail
cd "$(dirname "$0")/../.."

repeats="${1:-1}"
shift || true
[[ "${1:-}" == "--" ]] && shift
extra=("$@")

# The isowatch launcher builds the command (cli/target/isowatch.jar) first when needed.
./isowatch --version >&2

pg="jdbc:postgresql://127.0.0.1:5432/test"
maria="jdbc:mariadb://127.0.0.1:3306/test?sslMode=disable"
configs="${BENCH_CONFIGS:-postgresql:read-committed postgresql:repeatable-read postgresql:serializable \
mariadb:read-committed mariadb:repeatable-read mariadb:serializable \
h2:read-committed h2:repeatable-read h2:serializable h2:snapshot faulty:serializable}"

sessions="${SESSIONS:-8}"
keys="${KEYS:-100}"
txns="${TXNS:-10000}"
dist="${DIST:-uniform}"
shapes="${SHAPES:-paper}"

echo "| target | isolation | sessions | keys | dist | shapes | run | txns | committed | aborted | unknown | seconds | txn/s | committed/s | abort rate | failures | SSER | SER | SI | anomalies |"
echo "| --- | --- | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- | --- |"
for c in $configs; do
  db="${c%%:*}"
  level="${c#*:}"
  case "$db" in
    postgresql) target="$pg" ;;
    mariadb) target="$maria" ;;
    h2) target="h2" ;;
    faulty) target="faulty" ;;
  esac
  for run in $(seq 1 "$repeats"); do
    out=$(./isowatch agent --target "$target" --isolation "$level" \
      --sessions "$sessions" --keys "$keys" --txns "$txns" --dist "$dist" --shapes "$shapes" --seed "$run" \
      --table kv_bench --progress 0 --check \
      "${extra[@]}" 2>/dev/null)
    echo "$out" | awk -v db="$db" -v level="$level" -v run="$run" -v head="$sessions | $keys | $dist | $shapes" '
      /^  transactions/ { txns=$2; secs=$4; gsub(",","",$7); committed=$7; gsub(",","",$9); aborted=$9; unknown=$11 }
      /^  rate/ { rate=$2; crate=$5; sub(/^\(/,"",crate) }
      /^  abort rate/ { abort=$3 " %" }
      /^  failures/ { $1=""; failures=substr($0,2) }
      /^  check/ { sser=$3; gsub(",","",sser); ser=$5; gsub(",","",ser); si=$7 }
      /^  anomalies/ { $1=""; anomalies=substr($0,2) }
      END { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
            db, level, head, run, txns, committed, aborted, unknown, secs, rate, crate, abort, failures, sser, ser, si,
            anomalies }'
  done
done
