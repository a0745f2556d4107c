# Sourced by the benchmark scripts (run from the repository root): builds streams-app, tests
# skipped, when its jar or runtime lib/ is missing or a source it is built from is newer.
# Build output goes to stderr: a script's standard output may be a table or a --json document.
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
