#!/bin/sh
# Records goldens.json: runs every case of corpus.json and semantics.json
# with Debian's groovy (2.4) and bsh (2.0b4) and stand-in JMeter bindings.
#   apt-get install -y groovy bsh libcommons-lang3-java libcommons-codec-java libcommons-net-java libcommons-io-java default-jdk-headless
#   engine/testdata/script/record.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
: "${JAVA_HOME:=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
export JAVA_HOME
cp=/usr/share/java/groovy-all.jar:/usr/share/java/bsh.jar:/usr/share/java/commons-io.jar:/usr/share/java/commons-lang3.jar:/usr/share/java/commons-codec.jar:/usr/share/java/commons-net.jar
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
find "$here/recorder" -name '*.java' > "$build/sources"
javac -nowarn -encoding UTF-8 -cp "$cp" -d "$build" @"$build/sources"
# the file cases write and read in a fresh working folder
mkdir "$build/wd" && cd "$build/wd"
java -cp "$build:$cp" Record "$here/corpus.json" "$here/semantics.json" "$here/goldens.json"
