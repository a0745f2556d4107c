# Shared by the benchmark scripts (sourced, run from the repository root).

# Builds streams-app, tests skipped, when its jar or runtime lib/ is missing or a source it is built
# from is newer. Build output goes to stderr: a script's standard output may be a table or a --json
# document.
ensure_streams_app_jar() {
  local jar=streams-app/target/isowatch.jar
  if [[ ! -f "$jar" || ! -d streams-app/target/lib ]] \
      || [[ -n "$(find pom.xml streams-app/pom.xml streams-app/src/main schemas -newer "$jar" -type f -print -quit)" ]]; then
    echo "building streams-app (tests skipped) ..." >&2
    { mvn -q -B -o -DskipTests package -pl streams-app -am || mvn -q -B -DskipTests package -pl streams-app -am; } >&2
    # Maven leaves an up-to-date jar untouched: mark it built, or the next run would build again.
    touch "$jar"
  fi
}

# The JVM options of a benchmark: BENCH_JVM_OPTS when set, else a fixed heap of BENCH_HEAP (default
# $1; -Xms = -Xmx, so that resizing adds no noise), collected by one stop-the-world thread (the
# checker is single-threaded: the wall time measured is one core's work), plus options $2...
bench_jvm_opts() {
  local heap="${BENCH_HEAP:-$1}"
  shift
  printf '%s\n' "${BENCH_JVM_OPTS:--Xms$heap -Xmx$heap${*:+ $*} -XX:+UseParallelGC -XX:ParallelGCThreads=1}"
}

# Runs main class $1 of streams-app with arguments $2... in this process, under the options $JVM_OPTS.
exec_streams_app() {
  # shellcheck disable=SC2086 # JVM_OPTS is a list of options on purpose
  exec java $JVM_OPTS -cp "streams-app/target/isowatch.jar:streams-app/target/lib/*" "$@"
}
