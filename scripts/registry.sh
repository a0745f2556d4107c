#!/usr/bin/env bash
# Apicurio Registry 2.4.2.Final (Confluent-compatible API at /apis/ccompat/v7) for IsoWatch.
#
#   scripts/registry.sh build    build tools/registry/target/apicurio-registry-runner.jar if missing
#   scripts/registry.sh start    build if needed, start in the background, wait until ready
#   scripts/registry.sh stop     stop the registry started by `start` and wait for it to exit
#   scripts/registry.sh status   print whether it runs, and where
#
# Every command is idempotent. Environment (defaults in brackets):
#   REGISTRY_PORT [8081]  REGISTRY_HOST [127.0.0.1]  REGISTRY_READY_TIMEOUT seconds [60]
#   ISOWATCH_RUN_DIR [<repo>/.isowatch/run]  pid file registry.pid, log registry.log there
#   REGISTRY_JAVA_OPTS [-Xmx256m]  REGISTRY_MVN_ARGS extra Maven arguments for `build` (e.g. -o)
# Storage is in memory: a restart forgets every schema.
set -euo pipefail

readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly TOOL_DIR="$ROOT/tools/registry"
readonly JAR="$TOOL_DIR/target/apicurio-registry-runner.jar"
readonly PORT="${REGISTRY_PORT:-8081}"
readonly HOST="${REGISTRY_HOST:-127.0.0.1}"
readonly READY_TIMEOUT="${REGISTRY_READY_TIMEOUT:-60}"
readonly RUN_DIR="${ISOWATCH_RUN_DIR:-$ROOT/.isowatch/run}"
readonly PID_FILE="$RUN_DIR/registry.pid"
readonly LOG_FILE="$RUN_DIR/registry.log"
readonly URL_FILE="$RUN_DIR/registry.url"
readonly URL="http://$HOST:$PORT"

# The one artifact of Apicurio's build that the default repository lacks: the build-time half of
# the config-index extension. Its 0.1.10.Final jar has the same build step and runtime signature.
readonly CFG_INDEX_GA="io.apicurio:apicurio-common-app-components-config-index-deployment"
readonly CFG_INDEX_HAVE="0.1.10.Final"
readonly CFG_INDEX_WANT="0.1.18.Final"

# shellcheck source=lib/service.sh
source "$ROOT/scripts/lib/service.sh"

log() { printf 'registry: %s\n' "$*" >&2; }

mvn_registry() {
  # Our settings file goes in as the *global* settings, so a developer's ~/.m2/settings.xml
  # (local repository, proxies, mirrors) keeps applying on top of the blocked mirror.
  # shellcheck disable=SC2086
  mvn -B -gs "$TOOL_DIR/settings.xml" -f "$TOOL_DIR/pom.xml" ${REGISTRY_MVN_ARGS:-} "$@"
}

install_config_index_deployment() {
  # Always (re)installed before a build: cheap, and it replaces any earlier install of that
  # version that lacked the POM (a generated POM without the runtime dependency breaks Quarkus).
  log "installing $CFG_INDEX_GA $CFG_INDEX_HAVE locally as $CFG_INDEX_WANT"
  local stage="$TOOL_DIR/target/bootstrap"
  mkdir -p "$stage"
  mvn_registry -q dependency:copy -Dartifact="$CFG_INDEX_GA:$CFG_INDEX_HAVE" \
    -DoutputDirectory="$stage" -Dmdep.stripVersion=true
  local artifact="${CFG_INDEX_GA##*:}"
  mvn_registry -q install:install-file -Dfile="$stage/$artifact.jar" \
    -DpomFile="$TOOL_DIR/config-index-deployment-$CFG_INDEX_WANT.pom"
}

cmd_build() {
  if [[ -f "$JAR" ]]; then
    log "runner jar present: $JAR"
    return 0
  fi
  local t0=$SECONDS
  install_config_index_deployment
  log "building $JAR (about 20 s on a warm Maven repository, 1.5 min cold)"
  mvn_registry -q package -DskipTests
  [[ -f "$JAR" ]] || { log "build finished but $JAR is missing"; return 1; }
  log "built in $((SECONDS - t0)) s: $JAR"
}

# What the registry's command line contains (see service_pid).
readonly MATCH=apicurio-registry-runner.jar

running_pid() {
  service_pid "$MATCH"
}

ready() {
  curl -fs -o /dev/null --max-time 2 "${1:-$URL}/health/ready" 2>/dev/null
}

cmd_start() {
  local pid
  if service_already_running "$MATCH"; then
    cat "$URL_FILE"
    return 0
  fi
  require_free_port "$PORT" REGISTRY_PORT
  cmd_build
  mkdir -p "$RUN_DIR"
  # shellcheck disable=SC2086
  nohup java ${REGISTRY_JAVA_OPTS:--Xmx256m} \
    -Dquarkus.http.host="$HOST" -Dquarkus.http.port="$PORT" -Dquarkus.log.console.color=false \
    -jar "$JAR" >"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  printf '%s\n' "$pid" >"$PID_FILE"
  printf '%s\n' "$URL" >"$URL_FILE"
  await_ready "$pid" "$READY_TIMEOUT" ready
  printf '%s\n' "$URL"
}

cmd_stop() {
  service_stop "$MATCH" 20
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    local url
    url="$(cat "$URL_FILE")"
    if ready "$url"; then
      log "running and ready: pid $pid, RSS $(rss_mib "$pid") MB"
    else
      log "running, not ready: pid $pid, RSS $(rss_mib "$pid") MB"
    fi
    printf '%s\n' "$url"
  else
    log "not running"
    return 3
  fi
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    printf 'usage: %s build|start|stop|status\n' "$0" >&2
    exit 2
    ;;
esac
