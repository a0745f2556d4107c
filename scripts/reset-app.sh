#!/usr/bin/env bash
# Resets the streaming checker, the equivalent of kafka-streams-application-reset for IsoWatch:
# deletes its consumer group (committed input offsets), its changelog topics and this host's state
# directory, so that the next `isowatch run` re-reads its whole input with empty state.
#
#   scripts/reset-app.sh [--config checker.properties]          print what would be deleted; change nothing
#   scripts/reset-app.sh [--config checker.properties] --yes    reset
#
# Refuses while a checker instance is running. Configuration as for `isowatch run` (the file and the
# ISOWATCH_* environment, including SASL/TLS under kafka.*). Exit codes: 0 reset, 1 refused,
# 2 invalid configuration or cluster unreachable. See docs/runbook.md.
set -euo pipefail
readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$ROOT/isowatch" reset "$@"
