#!/usr/bin/env bash
# refcheck-diff: cross-checks `isowatch check` against the independent CPython reference checker
# (scripts/refcheck.py) on generated mini-transaction histories: both simulated databases (ser, si),
# no injection and every injectable anomaly, several seeds. Prints one DIFF line per history on which
# the SSER/SER/SI verdicts differ and a closing count; exits 1 if any differ.
#
#   scripts/refcheck-diff.sh [--txns N] [--seeds S]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
txns=400
seeds=3
while (( $# > 0 )); do
  case $1 in
    --txns) txns=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    *) echo "usage: $0 [--txns N] [--seeds S]" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
verdicts='import json, sys; d = json.load(sys.stdin)["verdicts"]; print(d["SSER"], d["SER"], d["SI"])'
# The injectable kinds, as `generate --help` lists them after "Known:" (wrapped over several lines).
kinds=$("$root/isowatch" generate --help | tr -s ' \n' ' ' | sed -n 's/.*Known: \([A-Za-z, ]*\)\..*/\1/p' | tr -d ' ' | tr ',' ' ')
[[ -n $kinds ]] || { echo "could not read the injectable kinds from isowatch generate --help" >&2; exit 2; }
compared=0
differ=0
for level in ser si; do
  for inject in none $kinds; do
    for seed in $(seq 1 "$seeds"); do
      file=$work/$level-$inject-$seed.jsonl
      args=(--txns "$txns" --keys 20 --sessions 5 --level "$level" --seed "$seed" --out "$file")
      [[ $inject == none ]] || args+=(--inject "$inject:1" --inject-at 0.5)
      "$root/isowatch" generate "${args[@]}" >/dev/null
      ref=$(python3 "$root/scripts/refcheck.py" "$file" | python3 -c "$verdicts" || true)
      iso=$("$root/isowatch" check --json "$file" | python3 -c "$verdicts" || true)
      compared=$((compared + 1))
      if [[ $ref != "$iso" ]]; then
        differ=$((differ + 1))
        echo "DIFF $level $inject seed $seed: refcheck [$ref] isowatch [$iso]"
      fi
    done
  done
done
echo "compared=$compared differ=$differ"
(( differ == 0 ))
