#!/usr/bin/env bash
# The seed's decision: is the book list faster with its cache? Builds gojm
# and the example target, starts the target on 127.0.0.1 (port 8080, the
# plans' default, or $PORT), runs test/jmeter/book.jmx (the book list, which
# queries its books on every request) and test/jmeter/bookCached.jmx (the
# same list from the cache), then prints gojm compare's table and verdict and
# writes the comparison charts to results/compare. Each run's own results,
# charts and dashboard are in results/book and results/bookCached
# ($RESULTS instead of results).
#
# With the target already listening on localhost:8080, the plans run from
# this folder as they are: gojm run test/jmeter/book.jmx
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/go/bin"
port=${PORT:-8080}
results=${RESULTS:-results}
bin=../../bin

mkdir -p "$bin"
go build -o "$bin/gojm" ../../cmd/gojm
go build -o "$bin/target" ../../examples/cmd/target

rm -rf "$results"
mkdir -p "$results"
"$bin/target" -addr "127.0.0.1:$port" > "$results/target.url" &
target=$!
trap 'kill $target 2>/dev/null; wait $target 2>/dev/null' EXIT
# The target prints its URL once it listens.
for _ in $(seq 100); do
  [ -s "$results/target.url" ] && break
  kill -0 $target 2>/dev/null || { echo "seed: the target did not start (port $port taken? PORT=... picks another)" >&2; exit 1; }
  sleep 0.1
done

for plan in book bookCached; do
  "$bin/gojm" run "test/jmeter/$plan.jmx" -e -o "$results/$plan" -J host=127.0.0.1 -J port="$port" > "$results/$plan.txt"
  echo "$plan.jmx: $(grep -m1 '^summary =' "$results/$plan.txt")"
done
echo
"$bin/gojm" compare "$results/book/results.jtl" "$results/bookCached/results.jtl" \
  --name "book list" --name "cached book list" --title "The book list without and with its cache" -o "$results/compare"
