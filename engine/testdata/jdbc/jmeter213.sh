#!/usr/bin/env bash
# Runs a JDBC plan with real JMeter 2.13 (../shared/oracle/jmeter213), for
# the goldens of engine/jdbc_oracle_test.go, which calls it with -record.
#
# Debian's JMeter 2.13 package leaves its JDBC module out (the pool it is
# written against, Excalibur's datasource, is not packaged). This builds
# the module from Debian's own source package of JMeter 2.13, fetched with
# apt-get source into a cache folder, with the stand-in pool in excalibur/
# (Debian's commons-dbcp2, set up as JMeter 5.6 sets up its pools), and
# links it into JMeter's lib/ext while the plan runs; Debian's PostgreSQL
# JDBC driver (libpostgresql-jdbc-java) is on the module's class path. The
# results are written as XML with response and sampler data, the JVM in UTC.
#
#   engine/testdata/jdbc/jmeter213.sh PLAN.jmx OUT.xml [-Jname=value ...]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 PLAN.jmx OUT.xml [-Jname=value ...]" >&2; exit 2; }
plan=$1 out=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
oracle=$root/../shared/oracle/jmeter213
home=/usr/share/jmeter
[ -x "$oracle" ] || { echo "jmeter213: $oracle not found" >&2; exit 1; }
[ -f $home/bin/ApacheJMeter.jar ] || "$oracle" -v >/dev/null # installs Debian's JMeter on first use
tmp=$(mktemp -d)
link=$home/lib/ext/ApacheJMeter_jdbc.jar
trap 'rm -rf "$tmp"; rm -f "$link"' EXIT
java=/usr/share/java
deps=(libpostgresql-jdbc-java:postgresql.jar libcommons-dbcp2-java:commons-dbcp2.jar libcommons-logging-java:commons-logging.jar)
for d in "${deps[@]}"; do
  [ -f "$java/${d#*:}" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${d%%:*}" >&2
done

cache=${XDG_CACHE_HOME:-$HOME/.cache}/gojm-jmeter213-jdbc
jar=$cache/ApacheJMeter_jdbc.jar
if [ ! -f "$jar" ] || [ "$here/excalibur" -nt "$jar" ]; then
  # The machine's own Debian sources, as source-package entries, in a
  # private apt state so that the system's stays as it is.
  mkdir -p "$tmp/apt/lists/partial" "$tmp/apt/parts"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" > "$tmp/apt/parts/$(basename "$f")"
  done
  [ -f /etc/apt/sources.list ] && sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$tmp/apt/sources.list"
  touch "$tmp/apt/sources.list"
  apt=(-o Dir::Etc::SourceList="$tmp/apt/sources.list" -o Dir::Etc::SourceParts="$tmp/apt/parts" -o Dir::State::Lists="$tmp/apt/lists")
  apt-get "${apt[@]}" update -qq >&2
  (cd "$tmp" && apt-get "${apt[@]}" source --download-only jmeter >&2 || true)
  orig=$(ls "$tmp"/jakarta-jmeter_2.13*.orig.tar.* | head -1)
  tar -C "$tmp" -xf "$orig" --wildcards '*/src/protocol/jdbc/*'
  src=$(ls -d "$tmp"/*/src/protocol/jdbc)
  cp=$home/bin/ApacheJMeter.jar
  for j in $home/lib/*.jar $home/lib/ext/*.jar $java/avalon-framework.jar $java/commons-collections3.jar $java/commons-lang3.jar \
    $java/excalibur-logkit.jar $java/commons-dbcp2.jar $java/commons-pool2.jar; do cp=$cp:$j; done
  mkdir -p "$tmp/classes"
  javac -nowarn -encoding UTF-8 --release 8 -cp "$cp" -d "$tmp/classes" \
    $(find "$src" -name '*.java' -not -path '*/gui/*') "$here"/excalibur/*.java 2>&1 | grep -v '^Note:' >&2 || true
  (cd "$src" && find . -name '*.properties' -exec cp --parents {} "$tmp/classes" \;)
  printf 'Class-Path: %s\n' "$java/commons-dbcp2.jar $java/commons-pool2.jar $java/commons-logging.jar $java/postgresql.jar $java/avalon-framework.jar" > "$tmp/manifest"
  mkdir -p "$cache"
  jar cfm "$jar" "$tmp/manifest" -C "$tmp/classes" .
fi

ln -sf "$jar" "$link"
rm -f "$out"
JVM_ARGS="-Xmx512m -Duser.timezone=UTC" "$oracle" -n -t "$plan" -l "$out" -j "$out.log" \
  -Jjmeter.save.saveservice.output_format=xml -Jjmeter.save.saveservice.response_data=true \
  -Jjmeter.save.saveservice.samplerData=true -Jjmeter.save.saveservice.thread_counts=true "$@" >&2
rm -f "$out.log"
