#!/usr/bin/env bash
# Creates IsoWatch's topics on a Kafka cluster, idempotently.
#
#   scripts/create-topics.sh            create them on $KAFKA_BOOTSTRAP (default 127.0.0.1:9092)
#   scripts/create-topics.sh --list     print the topic table without touching a cluster
#
# The topics are defined once, in Java (io.isowatch.schemas.topic.Topics); this script only runs
# `isowatch topics` (io.isowatch.streams.TopicsCommand), so names, partitions, retention and cleanup policy can never
# drift between the script, the app and the tests. Existing topics are never altered: one that
# differs from its definition is reported and the script exits 1.
# Environment: KAFKA_BOOTSTRAP [127.0.0.1:9092], TOPIC_REPLICATION [broker default],
# KAFKA_CLIENT_CONFIG [none]: a properties file with the client's kafka.* security settings
# (kafka.security.protocol, kafka.sasl.*, kafka.ssl.*), as for `isowatch run`.
set -euo pipefail

readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# ./isowatch builds IsoWatch first when needed.
if [[ "${1:-}" == "--list" ]]; then
  exec "$ROOT/isowatch" topics list
fi
args=(create --bootstrap-servers "${KAFKA_BOOTSTRAP:-127.0.0.1:9092}")
if [[ -n "${KAFKA_CLIENT_CONFIG:-}" ]]; then
  args+=(--config "$KAFKA_CLIENT_CONFIG")
fi
if [[ -n "${TOPIC_REPLICATION:-}" ]]; then
  args+=(--replication "$TOPIC_REPLICATION")
fi
exec "$ROOT/isowatch" topics "${args[@]}"
