#!/usr/bin/env bash
# Records what real JMeter 2.13 does with a plan, for golden comparisons:
# starts the example target on a free loopback port with request recording,
# runs ../shared/oracle/jmeter213 on PLAN with -Jhost and -Jport pointing at
# it, and leaves OUT.requests.jsonl (what the server received, in order)
# and OUT.jtl (JMeter's results, CSV with a header).
#
#   scripts/oracle.sh PLAN.jmx OUT [-Jname=value ...]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 PLAN.jmx OUT [-Jname=value ...]" >&2; exit 2; }
plan=$1 out=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
oracle=$root/../shared/oracle/jmeter213
[ -x "$oracle" ] || { echo "oracle: $oracle not found" >&2; exit 1; }
export PATH="$PATH:/usr/local/go/bin"

tmp=$(mktemp -d)
trap 'kill $target 2>/dev/null || true; rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/target" ./examples/cmd/target)
"$tmp/target" -addr 127.0.0.1:0 -record "$out.requests.jsonl" > "$tmp/url" &
target=$!
for _ in $(seq 100); do [ -s "$tmp/url" ] && break; sleep 0.1; done
hostport=$(sed 's#http://##' "$tmp/url")
rm -f "$out.jtl"
"$oracle" -n -t "$plan" -l "$out.jtl" -j "$tmp/jmeter.log" \
  -Jhost="${hostport%:*}" -Jport="${hostport#*:}" \
  -Jjmeter.save.saveservice.print_field_names=true "$@" > "$tmp/stdout"
kill -INT $target
wait $target || true
echo "oracle: $(grep -c . "$out.requests.jsonl" || true) requests recorded in $out.requests.jsonl; results in $out.jtl"
