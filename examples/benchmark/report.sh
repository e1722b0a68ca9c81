#!/usr/bin/env bash
# Measures `gojm report` on a generated JTL of ROWS rows (1,000,000 by
# default): wall time and peak memory (maximum resident set size) from
# /usr/bin/time -v, for the statistics alone, with -o (every chart and
# the dashboard), and for `gojm compare` of two such files.
#
#   examples/benchmark/report.sh [ROWS]
#
# Each JTL is JMeter 5.6's default CSV (17 columns): 6 labels, 50 threads,
# one sample per millisecond, exponential response times (mean 200 ms),
# 2% failures, 3% of samples with a new connection; the second file's
# mean is 210 ms. Needs GNU time
# (Debian's time package) and awk.
set -euo pipefail
rows=${1:-1000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"
[ -x /usr/bin/time ] || { echo "report.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/gojm" ./cmd/gojm)

generate() { # seed, mean response time (ms)
awk -v n="$rows" -v seed="$1" -v mean="$2" 'BEGIN {
  srand(seed)
  split("Home page,Search,Product,Add to cart,Checkout,Login", label, ",")
  print "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect"
  start = 1700000000000
  for (i = 0; i < n; i++) {
    l = label[i % 6 + 1]
    t = int(-log(1 - rand()) * mean)
    conn = (rand() < 0.03) ? int(rand() * 5) + 1 : 0
    if (rand() < 0.02) { code = "500"; msg = "Internal Server Error"; ok = "false" }
    else { code = "200"; msg = "OK"; ok = "true" }
    th = i % 50 + 1
    printf "%.0f,%d,%s,%s,%s,Users 1-%d,text,%s,,%d,%d,50,50,http://127.0.0.1:8080/p%d,%d,0,%d\n", \
      start + i, t, l, code, msg, th, ok, 2000 + int(rand() * 500), 180, i % 6, int(t / 2), conn
  }
}'
}
generate 1 200 > "$tmp/big.jtl"
generate 2 210 > "$tmp/big2.jtl"
echo "JTL: $rows rows, $(du -h "$tmp/big.jtl" | cut -f1)"

measure() { # name, gojm arguments...
  local name=$1; shift
  /usr/bin/time -v "$tmp/gojm" "$@" > "$tmp/out.txt" 2> "$tmp/time.txt"
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
  printf '%-34s wall %s   peak RSS %d MiB\n' "$name" "$wall" $((rss / 1024))
}
measure "gojm report (stdout only)" report "$tmp/big.jtl"
measure "gojm report -o (charts, dashboard)" report "$tmp/big.jtl" -o "$tmp/out"
grep -E '^Complete requests' "$tmp/out.txt"
measure "gojm compare (2 files, -o)" compare "$tmp/big.jtl" "$tmp/big2.jtl" -o "$tmp/cmp"
grep -A1 -E '^Total' "$tmp/out.txt"
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
