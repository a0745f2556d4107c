#!/usr/bin/env bash
# Creates IsoWatch's topics on a Kafka cluster, idempotently.
#
#   scripts/create-topics.sh            create them on $KAFKA_BOOTSTRAP (default 127.0.0.1:9092)
#   scripts/create-topics.sh --list     print the topic table without touching a cluster
#
# The topics are defined once, in Java (io.isowatch.streams.Topics); this script only runs
# io.isowatch.streams.TopicsCommand, so names, partitions, retention and cleanup policy can never
# drift between the script, the app and the tests. Existing topics are never altered: one that
# differs from its definition is reported and the script exits 1.
# Environment: KAFKA_BOOTSTRAP [127.0.0.1:9092], TOPIC_REPLICATION [broker default].
set -euo pipefail

readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly APP="$ROOT/streams-app"
readonly JAR="$APP/target/isowatch.jar"

log() { printf 'create-topics: %s\n' "$*" >&2; }

ensure_built() {
  # Rebuild when the jar is missing or older than any source it is made of.
  if [[ -f "$JAR" && -d "$APP/target/lib" ]] &&
     [[ -z "$(find "$APP/src/main" "$ROOT/schemas/src/main" "$APP/pom.xml" "$ROOT/schemas/pom.xml" \
               "$ROOT/pom.xml" -newer "$JAR" -print -quit)" ]]; then
    return 0
  fi
  log "building streams-app (no tests)"
  mvn -q -B -f "$ROOT/pom.xml" package -pl streams-app -am -DskipTests
}

ensure_built
readonly CP="$JAR:$APP/target/lib/*"
if [[ "${1:-}" == "--list" ]]; then
  exec java -cp "$CP" io.isowatch.streams.TopicsCommand list
fi
args=(create --bootstrap-servers "${KAFKA_BOOTSTRAP:-127.0.0.1:9092}")
if [[ -n "${TOPIC_REPLICATION:-}" ]]; then
  args+=(--replication "$TOPIC_REPLICATION")
fi
exec java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" io.isowatch.streams.TopicsCommand "${args[@]}"
