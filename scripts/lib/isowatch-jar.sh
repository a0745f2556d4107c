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
