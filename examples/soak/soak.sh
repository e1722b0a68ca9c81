#!/usr/bin/env bash
# Soak test (not run in CI): runs gojm at full speed against the example
# target on 127.0.0.1 for DURATION seconds (default 600) and prints gojm's
# resident memory (VmRSS) every 10 s, then the first and the last minute
# side by side. Memory must stay flat: every aggregate is streaming.
#
#   examples/soak/soak.sh                 # 10 minutes, 50 users
#   DURATION=180 USERS=100 examples/soak/soak.sh
#
# The last readings include the end of the run, when gojm writes the
# charts and the summary. The results folder (JTL, charts, summary) is
# deleted at the end unless KEEP=1; its size is printed first.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/go/bin"
duration=${DURATION:-600}
users=${USERS:-50}
every=10

tmp=$(mktemp -d)
target= gojm=
cleanup() {
  [ -n "$gojm" ] && kill "$gojm" 2>/dev/null || true
  [ -n "$target" ] && kill "$target" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "soak: results kept in $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

go build -o "$tmp/gojm" ./cmd/gojm
go build -o "$tmp/target" ./examples/cmd/target
"$tmp/target" -addr 127.0.0.1:0 > "$tmp/url" 2> "$tmp/target.log" &
target=$!
for _ in $(seq 100); do [ -s "$tmp/url" ] && break; sleep 0.1; done
[ -s "$tmp/url" ] || { echo "soak: the target did not start" >&2; exit 1; }
hostport=$(sed 's#http://##' "$tmp/url")

"$tmp/gojm" run examples/soak/soak.jmx -o "$tmp/out" --quiet \
  -J host="${hostport%:*}" -J port="${hostport#*:}" -J users="$users" -J duration="$duration" \
  > "$tmp/gojm.out" 2> "$tmp/gojm.err" &
gojm=$!
echo "soak: gojm pid $gojm, $users users for ${duration}s against $hostport; RSS every ${every}s"
printf '%8s %10s %12s\n' "time" "RSS (MB)" "JTL rows"

rss() { awk '/^VmRSS:/ {printf "%.1f", $2/1024}' "/proc/$1/status" 2>/dev/null; }
: > "$tmp/rss"
start=$SECONDS
while kill -0 "$gojm" 2>/dev/null; do
  sleep "$every"
  t=$((SECONDS - start))
  r=$(rss "$gojm") || true
  [ -n "$r" ] || break
  rows=$(($(wc -l < "$tmp/out/results.jtl" 2>/dev/null || echo 1) - 1))
  printf '%7ss %10s %12s\n' "$t" "$r" "$rows"
  echo "$t $r" >> "$tmp/rss"
done
status=0
wait "$gojm" || status=$?
gojm=
[ "$status" = 0 ] || { echo "soak: gojm exited $status" >&2; cat "$tmp/gojm.err" >&2; }

rows=$(($(wc -l < "$tmp/out/results.jtl") - 1))
size=$(du -sh "$tmp/out" | cut -f1)
last=$(tail -1 "$tmp/rss" | cut -d' ' -f1)
awk -v last="$last" '
  $1 <= 60 { n1++; s1 += $2; if ($2 > m1) m1 = $2 }
  $1 > last - 60 { n2++; s2 += $2; if ($2 > m2) m2 = $2 }
  END {
    if (n1 == 0 || n2 == 0) { print "soak: too short to compare minutes"; exit }
    printf "soak: RSS first minute mean %.1f MB (max %.1f), last minute mean %.1f MB (max %.1f)\n", s1/n1, m1, s2/n2, m2
  }' "$tmp/rss"
echo "soak: $rows samples in ${duration}s ($((rows / duration))/s); results folder $size"
grep -m1 '^Requests per second' "$tmp/gojm.out" || true
exit "$status"
