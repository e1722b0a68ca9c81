#!/usr/bin/env bash
# Builds gojm and the example target, starts the target on 127.0.0.1, runs
# the quickstart plan against it (with the HTML dashboard) and stops the target. Any extra arguments go
# to gojm run (e.g. -J users=50 -J loops=200).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
port=${PORT:-18080}

mkdir -p bin
go build -o bin/gojm ./cmd/gojm
go build -o bin/target ./examples/cmd/target

bin/target -addr "127.0.0.1:$port" > bin/target.url &
target=$!
trap 'kill $target 2>/dev/null; wait $target 2>/dev/null' EXIT
# The target prints its URL once it listens.
for _ in $(seq 100); do
  [ -s bin/target.url ] && break
  kill -0 $target 2>/dev/null || { echo "demo: the target did not start (port $port taken?)" >&2; exit 1; }
  sleep 0.1
done
echo "Target: $(cat bin/target.url)"

bin/gojm run examples/plans/quickstart.jmx -e -J host=127.0.0.1 -J port="$port" "$@"
