# Shared plumbing of scripts/kafka.sh and scripts/registry.sh: one background Java service with a
# pid file. Sourced, not run. The caller defines log() and sets HOST, PID_FILE and LOG_FILE.

# True when something listens on HOST:$1 (bash's /dev/tcp connects only then).
port_in_use() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# Prints the pid from PID_FILE when that process is alive and its command line contains $1 (a
# guard against a recycled pid); fails otherwise.
service_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$1" || return 1
  printf '%s\n' "$pid"
}

# Waits until the command "$@" succeeds, while pid $1 lives, for at most $2 seconds.
# Usage: await_ready PID TIMEOUT CHECK-COMMAND...
await_ready() {
  local pid="$1" timeout="$2"
  shift 2
  local deadline=$((SECONDS + timeout)) t0
  t0="$(date +%s%N)"
  until "$@"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      log "exited during start-up; last lines of $LOG_FILE:"
      tail -n 20 "$LOG_FILE" >&2
      return 1
    fi
    if ((SECONDS >= deadline)); then
      log "not ready after ${timeout} s; see $LOG_FILE (still running as pid $pid)"
      return 1
    fi
    sleep 0.2
  done
  log "ready in $((($(date +%s%N) - t0) / 1000000)) ms (pid $pid, log $LOG_FILE)"
}

# Sends SIGTERM to pid $1 (a clean shutdown), SIGKILL after $2 seconds, and waits for the exit.
stop_pid() {
  local pid="$1" grace="$2"
  kill "$pid"
  local deadline=$((SECONDS + grace))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      log "pid $pid ignored SIGTERM for $grace s; sending SIGKILL"
      kill -9 "$pid" 2>/dev/null || true
    fi
    sleep 0.2
  done
  rm -f "$PID_FILE"
  log "stopped (pid $pid)"
}

# Resident memory of pid $1 in MiB.
rss_mib() {
  awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"
}

# Stops the service whose command line contains $1 (see service_pid), granting it $2 seconds to
# exit cleanly; says so when it does not run.
service_stop() {
  local pid
  if ! pid="$(service_pid "$1")"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  stop_pid "$pid" "$2"
}

# True, saying so, when the service whose command line contains $1 runs already; the caller then
# prints where it listens (which may differ from this call's port). Fails silently otherwise.
service_already_running() {
  local pid
  pid="$(service_pid "$1")" || return 1
  log "already running (pid $pid)"
}

# Fails, saying so, when another process listens on HOST:$1; $2 names the variable that moves it.
require_free_port() {
  if port_in_use "$1"; then
    log "port $HOST:$1 is already taken by another process; set $2"
    return 1
  fi
}
