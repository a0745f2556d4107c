#!/usr/bin/env bash
# Benchmarks the isowatch command as a user meets it (JVM start, parse, check, report), against the
# plain CPython reference checker scripts/refcheck.py, on the same files in the same run.
#
#   scripts/bench-cli.sh                         # 3 runs of everything below
#   scripts/bench-cli.sh --runs 5 --no-1m
#   scripts/bench-cli.sh --opts serial='-XX:+UseSerialGC' --opts c1='-XX:TieredStopAtLevel=1'
#
# Commands, each run --runs times, interleaved (run 1 of every command, then run 2…) so that a change
# of load on a shared machine spreads over all of them:
#   version          ./isowatch --version                                       (class-data archive on)
#   version-nocds    ISOWATCH_CDS=off ./isowatch --version                      (archive off)
#   check-250k       ./isowatch check --levels SSER,SER,SI --json H250K         (one per --opts)
#   check-250k-nocds the same with ISOWATCH_CDS=off
#   refcheck-250k    python3 scripts/refcheck.py --levels SSER,SER,SI H250K
#   check-1m         ./isowatch check --levels SSER,SER,SI --json H1M            (unless --no-1m)
#   refcheck-1m      python3 scripts/refcheck.py H1M                             (only with --refcheck-1m)
#   check-250k-edn, check-250k-elle-json, check-250k-aion   the 250K history as Elle EDN, as Elle
#                    JSON lines and as Aion JSON (only with
#                    --formats; written once by scripts/jsonl-to-formats.py next to H250K)
#   check-250k-sersi, check-250k-notime, check-250k-text   with --formats: --levels SER,SI on the
#                    250K history, on it without start/end (JSONL), and on that as text (keys made
#                    integers, written once by isowatch convert --to text): no times, so no SSER
#   with --formats and --baseline, each format's command also runs DIR/isowatch (…-baseline)
# Every check must answer SATISFIED for the three levels (exit 0): the generated histories are valid.
#
# Prints, per command, the median wall time and the median CPU time (user + sys, children included:
# the JVM's compiler and GC threads count) and txn/s by each, then the ratios refcheck / isowatch.
# On a shared, noisy machine compare CPU times and ratios within one run, not wall times across runs.
#
# Options:
#   --runs N         runs per command (default 3)
#   --dir DIR        where generated histories are kept and reused (default /tmp/isowatch-bench-cli)
#   --h250k FILE     use this 250K-transaction history instead of generating one
#   --h1m FILE       use this 10^6-transaction history instead of generating one
#   --no-1m          skip the 10^6-transaction history
#   --refcheck-1m    also run refcheck on the 10^6 history (about 80 s of CPU per run)
#   --formats        also check the 250K history written as Elle EDN, as Aion, without times and as
#                    text (per-transaction speed of the other readers against JSONL's)
#   --opts L=OPTS    an extra isowatch variant for check-250k/check-1m, labelled L, run with
#                    ISOWATCH_JAVA_OPTS=OPTS (repeatable)
#   --baseline DIR   also run DIR/isowatch (another checkout, e.g. main's: git archive main | tar -x -C DIR)
#                    as check-250k-baseline/check-1m-baseline, for before/after ratios taken in one run
# Histories: ./isowatch generate --txns 250000 --sessions 64 --keys 10000 --seed 5 (the baseline of
# docs/benchmarks.md, Part 4) and --txns 1000000 --sessions 64 --keys 40000 --seed 5.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
dir=${TMPDIR:-/tmp}/isowatch-bench-cli
h250k=
h1m=
with_1m=1
refcheck_1m=0
formats=0
variant_labels=(default)
variant_opts=("")
baseline=
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --h250k) h250k=$2; shift 2 ;;
    --h1m) h1m=$2; shift 2 ;;
    --no-1m) with_1m=0; shift ;;
    --refcheck-1m) refcheck_1m=1; shift ;;
    --formats) formats=1; shift ;;
    --baseline) baseline=$(cd "$2" && pwd); shift 2 ;;
    --opts) variant_labels+=("${2%%=*}"); variant_opts+=("${2#*=}"); shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-cli: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v /usr/bin/time >/dev/null || { echo "bench-cli: needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }

mkdir -p "$dir"
# Builds (when needed) and makes the class-data archive outside the measured runs.
./isowatch --version >/dev/null
[[ -z $baseline ]] || "$baseline/isowatch" --version >/dev/null

generate() { # FILE TXNS KEYS
  if [[ ! -s $1 ]]; then
    echo "generating $1 ($2 transactions)…" >&2
    ./isowatch generate --txns "$2" --sessions 64 --keys "$3" --seed 5 --out "$1" >/dev/null
  fi
}
if [[ -z $h250k ]]; then h250k=$dir/h250k.jsonl; generate "$h250k" 250000 10000; fi
if [[ $with_1m == 1 && -z $h1m ]]; then h1m=$dir/h1m.jsonl; generate "$h1m" 1000000 40000; fi
txns_of() { wc -l < "$1" | tr -d ' '; }

# name|expected exit|txns|command (run by bash -c)
commands=(
  "version|0|0|./isowatch --version"
  "version-nocds|0|0|ISOWATCH_CDS=off ./isowatch --version"
)
for i in "${!variant_labels[@]}"; do
  suffix=; [[ $i == 0 ]] || suffix=-${variant_labels[$i]}
  commands+=("check-250k$suffix|0|$(txns_of "$h250k")|ISOWATCH_JAVA_OPTS='${variant_opts[$i]}' ./isowatch check --levels SSER,SER,SI --json '$h250k'")
done
[[ -z $baseline ]] || commands+=("check-250k-baseline|0|$(txns_of "$h250k")|'$baseline/isowatch' check --levels SSER,SER,SI --json '$h250k'")
commands+=(
  "check-250k-nocds|0|$(txns_of "$h250k")|ISOWATCH_CDS=off ./isowatch check --levels SSER,SER,SI --json '$h250k'"
  "refcheck-250k|0|$(txns_of "$h250k")|python3 scripts/refcheck.py --levels SSER,SER,SI '$h250k'"
)
if [[ $formats == 1 ]]; then
  edn=${h250k%.jsonl}.edn
  aion=${h250k%.jsonl}-aion.json
  elle_json=${h250k%.jsonl}-elle.json
  if [[ ! -s $edn || ! -s $aion || ! -s $elle_json || $edn -ot $h250k || $aion -ot $h250k || $elle_json -ot $h250k ]]; then
    echo "writing $edn, $elle_json and $aion…" >&2
    python3 scripts/jsonl-to-formats.py "$h250k" "$edn" "$aion" "$elle_json"
  fi
  notime=${h250k%.jsonl}-notime.jsonl
  text=${h250k%.jsonl}.txt
  if [[ ! -s $notime || ! -s $text || $notime -ot $h250k || $text -ot $h250k ]]; then
    echo "writing $notime and $text…" >&2
    python3 -c 'import json, sys
for line in sys.stdin:
    t = json.loads(line); t.pop("start", None); t.pop("end", None); print(json.dumps(t, separators=(",", ":")))' \
      < "$h250k" > "$notime"
    sed 's/"k":"k\([0-9]*\)"/"k":"\1"/g' "$notime" > "$text.jsonl"
    ./isowatch convert --to text --out "$text" "$text.jsonl" >/dev/null
    rm -f "$text.jsonl"
  fi
  n=$(txns_of "$h250k")
  for build in this baseline; do
    [[ $build == this || -n $baseline ]] || continue
    bin=./isowatch; suffix=
    [[ $build == this ]] || { bin="'$baseline/isowatch'"; suffix=-baseline; }
    commands+=(
      "check-250k-edn$suffix|0|$n|$bin check --levels SSER,SER,SI --json '$edn'"
      "check-250k-elle-json$suffix|0|$n|$bin check --levels SSER,SER,SI --json '$elle_json'"
      "check-250k-aion$suffix|0|$n|$bin check --levels SSER,SER,SI --json '$aion'"
      "check-250k-sersi$suffix|0|$n|$bin check --levels SER,SI --json '$h250k'"
      "check-250k-notime$suffix|0|$n|$bin check --levels SER,SI --json '$notime'"
      "check-250k-text$suffix|0|$n|$bin check --levels SER,SI --json '$text'"
    )
  done
fi
if [[ $with_1m == 1 ]]; then
  n1m=$(txns_of "$h1m")
  for i in "${!variant_labels[@]}"; do
    suffix=; [[ $i == 0 ]] || suffix=-${variant_labels[$i]}
    commands+=("check-1m$suffix|0|$n1m|ISOWATCH_JAVA_OPTS='${variant_opts[$i]}' ./isowatch check --levels SSER,SER,SI --json '$h1m'")
  done
  [[ -z $baseline ]] || commands+=("check-1m-baseline|0|$n1m|'$baseline/isowatch' check --levels SSER,SER,SI --json '$h1m'")
  [[ $refcheck_1m == 0 ]] || commands+=("refcheck-1m|0|$n1m|python3 scripts/refcheck.py --levels SSER,SER,SI '$h1m'")
fi

echo "== machine"
echo "date (UTC): $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (dirty)')"
echo "nproc: $(nproc)"
grep -m1 'model name' /proc/cpuinfo || echo "model name: unknown"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
python3 --version
echo "runs: $runs; histories: $h250k ($(txns_of "$h250k") txns)${h1m:+, $h1m ($(txns_of "$h1m") txns)}"

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
for ((run = 1; run <= runs; run++)); do
  for c in "${commands[@]}"; do
    IFS='|' read -r name expect _ cmd <<< "$c"
    set +e
    /usr/bin/time -f '%e %U %S' -o "$results/time" bash -c "$cmd" > "$results/out" 2> "$results/err"
    status=$?
    set -e
    if [[ $status != "$expect" ]]; then
      echo "bench-cli: $name exited $status, expected $expect:" >&2
      head -c 2000 "$results/out" "$results/err" >&2
      exit 1
    fi
    # /usr/bin/time appends its line after any "Command exited" note: take the last line.
    tail -1 "$results/time" | awk '{printf "%s %.2f\n", $1, $2 + $3}' >> "$results/$name"
    echo "run $run $name: $(tail -1 "$results/$name")" >&2
  done
done

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
declare -A wall cpu
echo "== results (median of $runs; CPU = user + sys)"
printf '%-22s %10s %10s %12s %12s\n' command "wall s" "CPU s" "txn/s wall" "txn/s CPU"
for c in "${commands[@]}"; do
  IFS='|' read -r name _ txns _ <<< "$c"
  wall[$name]=$(cut -d' ' -f1 "$results/$name" | median)
  cpu[$name]=$(cut -d' ' -f2 "$results/$name" | median)
  if [[ $txns == 0 ]]; then
    printf '%-22s %10s %10s %12s %12s\n' "$name" "${wall[$name]}" "${cpu[$name]}" - -
  else
    printf '%-22s %10s %10s %12.0f %12.0f\n' "$name" "${wall[$name]}" "${cpu[$name]}" \
      "$(echo "$txns / ${wall[$name]}" | bc -l)" "$(echo "$txns / ${cpu[$name]}" | bc -l)"
  fi
done
ratio() { printf "%.2f" "$(echo "$1 / $2" | bc -l)"; }
echo "== ratios (refcheck / isowatch: how many times faster isowatch is; nocds / cds: what the archive saves)"
echo "250k refcheck/isowatch: CPU $(ratio "${cpu[refcheck-250k]}" "${cpu[check-250k]}"), wall $(ratio "${wall[refcheck-250k]}" "${wall[check-250k]}")"
echo "version nocds/cds: CPU $(ratio "${cpu[version-nocds]}" "${cpu[version]}"), wall $(ratio "${wall[version-nocds]}" "${wall[version]}")"
echo "check-250k nocds/cds: CPU $(ratio "${cpu[check-250k-nocds]}" "${cpu[check-250k]}"), wall $(ratio "${wall[check-250k-nocds]}" "${wall[check-250k]}")"
for i in "${!variant_labels[@]}"; do
  [[ $i == 0 ]] && continue
  l=${variant_labels[$i]}
  echo "check-250k default/$l: CPU $(ratio "${cpu[check-250k]}" "${cpu[check-250k-$l]}"), wall $(ratio "${wall[check-250k]}" "${wall[check-250k-$l]}")"
done
if [[ -n $baseline ]]; then
  echo "baseline: $baseline ($(cd "$baseline" && git rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
  echo "250k baseline/this: CPU $(ratio "${cpu[check-250k-baseline]}" "${cpu[check-250k]}"), wall $(ratio "${wall[check-250k-baseline]}" "${wall[check-250k]}")"
  echo "250k refcheck/baseline: CPU $(ratio "${cpu[refcheck-250k]}" "${cpu[check-250k-baseline]}"), wall $(ratio "${wall[refcheck-250k]}" "${wall[check-250k-baseline]}")"
  if [[ $with_1m == 1 ]]; then
    echo "1m baseline/this: CPU $(ratio "${cpu[check-1m-baseline]}" "${cpu[check-1m]}"), wall $(ratio "${wall[check-1m-baseline]}" "${wall[check-1m]}")"
  fi
fi
if [[ $formats == 1 ]]; then
  for suffix in "" ${baseline:+-baseline}; do
    echo "250k edn/jsonl$suffix: CPU $(ratio "${cpu[check-250k-edn$suffix]}" "${cpu[check-250k$suffix]}"), wall $(ratio "${wall[check-250k-edn$suffix]}" "${wall[check-250k$suffix]}")"
    echo "250k aion/jsonl$suffix: CPU $(ratio "${cpu[check-250k-aion$suffix]}" "${cpu[check-250k$suffix]}"), wall $(ratio "${wall[check-250k-aion$suffix]}" "${wall[check-250k$suffix]}")"
    echo "250k SER,SI notime/timed$suffix: CPU $(ratio "${cpu[check-250k-notime$suffix]}" "${cpu[check-250k-sersi$suffix]}"), wall $(ratio "${wall[check-250k-notime$suffix]}" "${wall[check-250k-sersi$suffix]}")"
    echo "250k SER,SI text/timed$suffix: CPU $(ratio "${cpu[check-250k-text$suffix]}" "${cpu[check-250k-sersi$suffix]}"), wall $(ratio "${wall[check-250k-text$suffix]}" "${wall[check-250k-sersi$suffix]}")"
  done
  if [[ -n $baseline ]]; then
    for f in edn aion sersi notime text; do
      echo "250k $f baseline/this: CPU $(ratio "${cpu[check-250k-$f-baseline]}" "${cpu[check-250k-$f]}"), wall $(ratio "${wall[check-250k-$f-baseline]}" "${wall[check-250k-$f]}")"
    done
  fi
fi
if [[ $refcheck_1m == 1 ]]; then
  echo "1m refcheck/isowatch: CPU $(ratio "${cpu[refcheck-1m]}" "${cpu[check-1m]}"), wall $(ratio "${wall[refcheck-1m]}" "${wall[check-1m]}")"
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
