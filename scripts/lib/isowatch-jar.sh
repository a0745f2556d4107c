# Sourced by the benchmark scripts (run from the repository root): builds the isowatch command
# (cli/target/isowatch.jar and cli/target/lib/, every module it assembles), tests compiled but not
# run, when its jar or runtime lib/ is missing or a source it is built from is newer.
# Build output goes to stderr: a script's standard output may be a table or a --json document.
ensure_isowatch_jar() {
  local jar=cli/target/isowatch.jar
  if [[ ! -f "$jar" || ! -d cli/target/lib ]] \
      || [[ -n "$(find pom.xml ./*/pom.xml core/src schemas/src local-stack/src streams-app/src producer-agent/src cli/src \
          -newer "$jar" -type f -print -quit)" ]]; then
    echo "building isowatch (tests compiled, not run) ..." >&2
    { mvn -q -B -o -DskipTests package -pl cli -am || mvn -q -B -DskipTests package -pl cli -am; } >&2
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

# Runs main class $1 of the isowatch command with arguments $2... in this process, under $JVM_OPTS.
exec_isowatch_class() {
  # shellcheck disable=SC2086 # JVM_OPTS is a list of options on purpose
  exec java $JVM_OPTS -cp "cli/target/isowatch.jar:cli/target/lib/*" "$@"
}
