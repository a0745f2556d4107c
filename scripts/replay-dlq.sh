#!/usr/bin/env bash
# Re-publishes the dead letters of isowatch.dlq.v1 (their raw key and value, byte for byte) to the
# topic they came from, once the cause is fixed.
#
#   scripts/replay-dlq.sh [--config checker.properties] --dry-run        list what would be replayed
#   scripts/replay-dlq.sh [--config checker.properties]                  replay every letter
#   scripts/replay-dlq.sh ... --from-offset N --error SerializationException --to TOPIC
#
# Configuration as for `isowatch run` (the file and the ISOWATCH_* environment: brokers, registry,
# SASL/TLS). The summary prints the offset to continue from. See docs/runbook.md.
set -euo pipefail
readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$ROOT/isowatch" dlq replay "$@"
