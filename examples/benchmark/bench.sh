#!/usr/bin/env bash
# gojm beside wrk, ab, hey and vegeta on this machine, doing the same work:
# GET of a 383-byte page from nginx over keep-alive, at 10 and 100
# concurrent users; then gojm's memory per virtual user at 2,000 and 10,000
# users against an endpoint that answers after 1 s; then gojm's start-up.
#
# The load tool runs pinned to CPU 0, the server to CPU 1. Client CPU per
# request is (user + system) / requests from /usr/bin/time; each cell is the
# median of REPS runs. Everything listens on 127.0.0.1 only, and every run is
# bounded in requests and time.
#
#   examples/benchmark/bench.sh            # full run, about 10 minutes
#   examples/benchmark/bench.sh --quick    # smoke test, about 1 minute
#
# Knobs (environment): REPS N CONCS TOOLS SECS SCALE_VUS SCALE_LOOPS WORK, and
# GOJM_BIN to measure a gojm binary built elsewhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

WORK=${WORK:-/tmp/gojm-benchmark}
REPS=${REPS:-3}
N=${N:-50000}                    # requests per run (wrk and vegeta run SECS instead)
CONCS=${CONCS:-"10 100"}
TOOLS=${TOOLS:-"wrk ab hey vegeta gojm"}
SECS=${SECS:-3}
SCALE_VUS=${SCALE_VUS:-"2000 10000"}
SCALE_LOOPS=${SCALE_LOOPS:-10}
if [ "${1:-}" = --quick ]; then
  REPS=1 N=5000 SECS=1 SCALE_VUS=500 SCALE_LOOPS=3
fi
PORT=18090   # nginx
TPORT=18091  # the example target (slow endpoint)

mkdir -p "$WORK/bin" "$WORK/runs"
RUNS=$WORK/runs/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$RUNS"

# ---------------------------------------------------------------- tools
install() {
  local pkgs=()
  command -v nginx >/dev/null || pkgs+=(nginx-light)
  command -v wrk >/dev/null || pkgs+=(wrk)
  command -v ab >/dev/null || pkgs+=(apache2-utils)
  command -v hey >/dev/null || pkgs+=(hey)
  [ -x /usr/bin/time ] || pkgs+=(time)
  command -v taskset >/dev/null || pkgs+=(util-linux)
  if [ ${#pkgs[@]} -gt 0 ]; then
    echo "bench: installing ${pkgs[*]}" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${pkgs[@]}" >/dev/null
  fi
  if [ ! -x "$WORK/bin/vegeta" ]; then
    echo "bench: installing vegeta" >&2
    GOBIN=$WORK/bin go install github.com/tsenart/vegeta/v12@v12.13.0
  fi
  if [ -n "${GOJM_BIN:-}" ]; then
    cp "$GOJM_BIN" "$WORK/bin/gojm"
  else
    (cd "$root" && go build -o "$WORK/bin/gojm" ./cmd/gojm)
  fi
  (cd "$root" && go build -o "$WORK/bin/target" ./examples/cmd/target)
}

# ---------------------------------------------------------------- servers
start_nginx() {
  local d=$WORK/nginx
  mkdir -p "$d/html" "$d/logs"
  # A 383-byte page, the size of the classic Mojolicious ab benchmark's.
  head -c 383 < <(printf '<!DOCTYPE html><html><head><title>gojm benchmark</title></head><body>%0400d</body></html>' 0) > "$d/html/index.html"
  cat > "$d/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $d/logs/error.log;
pid $d/nginx.pid;
events { worker_connections 20000; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$PORT;
    root $d/html;
  }
}
CONF
  taskset -c 1 nginx -p "$d" -c "$d/nginx.conf" &
  NGINX=$!
  wait_port $PORT
}

start_target() {
  taskset -c 1 env GOMAXPROCS=1 "$WORK/bin/target" -addr 127.0.0.1:$TPORT > "$WORK/target.url" &
  TARGET=$!
  wait_port $TPORT
}

wait_port() {
  for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "bench: nothing listens on port $1" >&2
  exit 1
}

stop_all() {
  [ -n "${NGINX:-}" ] && kill "$NGINX" 2>/dev/null
  [ -n "${TARGET:-}" ] && kill "$TARGET" 2>/dev/null
  wait 2>/dev/null || true
}
trap stop_all EXIT

# ---------------------------------------------------------------- one run
# measure DIR CMD…: runs CMD on CPU 0 under /usr/bin/time, bounded to 150 s.
measure() {
  local d=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$d/time" timeout 150 taskset -c 0 "$@" > "$d/out" 2> "$d/err" || true
}

# run_tool TOOL C DIR: one run; prints "requests rps p50ms p99ms".
run_tool() {
  local tool=$1 c=$2 d=$3 url=http://127.0.0.1:$PORT/
  case $tool in
  wrk)
    measure "$d" wrk -t1 -c"$c" -d"${SECS}s" --timeout 10s --latency "$url"
    python3 - "$d/out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def ms(v, u): return float(v) * {"us": 1e-3, "ms": 1, "s": 1e3}[u]
n = re.search(r"(\d+) requests in", t).group(1)
rps = re.search(r"Requests/sec:\s+([\d.]+)", t).group(1)
p = {k: ms(v, u) for k, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)$", t, re.M)}
print(n, rps, p["50"], p["99"])
PY
    ;;
  ab)
    measure "$d" ab -q -k -r -s 30 -n "$N" -c "$c" "$url"
    python3 - "$d/out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
n = re.search(r"Complete requests:\s+(\d+)", t).group(1)
rps = re.search(r"Requests per second:\s+([\d.]+)", t).group(1)
p = dict(re.findall(r"^\s+(50|99)%\s+(\d+)", t, re.M))
print(n, rps, p["50"], p["99"])
PY
    ;;
  hey)
    measure "$d" hey -n "$N" -c "$c" -t 30 "$url"
    python3 - "$d/out" "$N" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = re.search(r"Requests/sec:\s+([\d.]+)", t).group(1)
p = {k: float(v) * 1e3 for k, v in re.findall(r"(50|99)% in ([\d.]+) secs", t)}
print(sys.argv[2], rps, p["50"], p["99"])
PY
    ;;
  vegeta)
    echo "GET $url" > "$d/targets"
    measure "$d" sh -c "'$WORK/bin/vegeta' attack -rate=0 -max-workers=$c -workers=$c -duration=${SECS}s -targets='$d/targets' > '$d/results.bin'"
    "$WORK/bin/vegeta" report -type=json "$d/results.bin" > "$d/report.json"
    python3 - "$d/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
l = r["latencies"]
print(r["requests"], r["throughput"], l["50th"] / 1e6, l["99th"] / 1e6)
PY
    ;;
  gojm)
    measure "$d" "$WORK/bin/gojm" -n -t "$here/get.jmx" -l "$d/out.jtl" -j "$d/gojm.log" \
      -Jhost=127.0.0.1 -Jport=$PORT -Jpath=/ -Jthreads="$c" -Jloops=$((N / c)) -Jduration=140
    "$WORK/bin/gojm" report "$d/out.jtl" > "$d/report.txt"
    python3 - "$d/report.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
n = re.search(r"Complete requests:\s+(\d+)", t).group(1)
rps = re.search(r"Requests per second:\s+([\d.]+)", t).group(1)
p = dict(re.findall(r"^\s+(50|99)%\s+(\d+)", t, re.M))
print(n, rps, p["50"], p["99"])
PY
    ;;
  esac
}

# ---------------------------------------------------------------- main
install
start_nginx
echo "bench: $(nproc) CPUs, $(uname -r); load tool on CPU 0, server on CPU 1; results in $RUNS" >&2
rows=$RUNS/rows.tsv
: > "$rows"
for t in $TOOLS; do run_tool "$t" 10 "$(mktemp -d "$RUNS/warm-XXXX")" > /dev/null || true; done
for rep in $(seq "$REPS"); do
  for c in $CONCS; do
    for t in $TOOLS; do
      d=$RUNS/$t-c$c-r$rep
      mkdir -p "$d"
      if ! res=$(run_tool "$t" "$c" "$d"); then
        echo "bench: $t c=$c failed; see $d" >&2
        continue
      fi
      read -r wall user sys rss < "$d/time"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$c" $res "$user" "$sys" "$rss" | tee -a "$rows" >&2
    done
  done
done

# Memory per virtual user: gojm against an endpoint that answers after 1 s.
start_target
scale=$RUNS/scale.tsv
: > "$scale"
ulimit -n 65536 2>/dev/null || true
base=$RUNS/gojm-base
mkdir -p "$base"
measure "$base" "$WORK/bin/gojm" -n -t "$here/get.jmx" -l "$base/out.jtl" -Jhost=127.0.0.1 -Jport=$TPORT \
  -Jpath=/sleep?ms=1000 -Jthreads=1 -Jloops=2 -Jduration=60
read -r _ _ _ base_rss < "$base/time"
for v in $SCALE_VUS; do
  d=$RUNS/gojm-scale-$v
  mkdir -p "$d"
  measure "$d" "$WORK/bin/gojm" -n -t "$here/get.jmx" -l "$d/out.jtl" -Jhost=127.0.0.1 -Jport=$TPORT \
    -Jpath=/sleep?ms=1000 -Jthreads="$v" -Jloops="$SCALE_LOOPS" -Jduration=120
  read -r wall user sys rss < "$d/time"
  rows_done=$(($(wc -l < "$d/out.jtl") - 1))
  printf '%s\t%s\t%s\t%s\t%s\n' "$v" "$rss" "$base_rss" "$rows_done" "$wall" | tee -a "$scale" >&2
done

# Start-up: one virtual user, one request, the whole process timed.
for rep in $(seq 5); do
  d=$RUNS/gojm-startup-$rep
  mkdir -p "$d"
  measure "$d" "$WORK/bin/gojm" -n -t "$here/get.jmx" -l "$d/out.jtl" -Jhost=127.0.0.1 -Jport=$PORT -Jthreads=1 -Jloops=1
  awk '{print $1}' "$d/time"
done > "$RUNS/startup.txt"

python3 - "$rows" "$scale" "$RUNS/startup.txt" "$N" <<'PY'
import statistics as st, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines() if l]
print("| tool | C | req/s | client CPU per request | peak RSS | p50 ms | p99 ms |")
print("|---|---:|---:|---:|---:|---:|---:|")
keys = []
for r in rows:
    if (r[0], r[1]) not in keys:
        keys.append((r[0], r[1]))
for tool, c in sorted(keys, key=lambda k: (int(k[1]), ["wrk", "ab", "hey", "vegeta", "gojm"].index(k[0]) if k[0] in ["wrk", "ab", "hey", "vegeta", "gojm"] else 9)):
    rs = [r for r in rows if r[0] == tool and r[1] == c]
    med = lambda i: st.median(float(r[i]) for r in rs)
    cpu = st.median((float(r[6]) + float(r[7])) * 1e6 / float(r[2]) for r in rs)
    print(f"| {tool} | {c} | {med(3):,.0f} | {cpu:.1f} µs | {med(8) / 1024:.1f} MiB | {med(4):.2f} | {med(5):.2f} |")
print()
print("| gojm virtual users (1 s per request) | peak RSS | RSS per user | JTL rows | wall s |")
print("|---:|---:|---:|---:|---:|")
for l in open(sys.argv[2]).read().splitlines():
    v, rss, base, n, wall = l.split("\t")
    print(f"| {int(v):,} | {int(rss) / 1024:.0f} MiB | {(int(rss) - int(base)) / int(v):.1f} KiB | {int(n):,} | {wall} |")
print()
s = [float(x) * 1000 for x in open(sys.argv[3]).read().split()]
print(f"gojm start-up, one request, whole process: median {st.median(s):.0f} ms over {len(s)} runs")
PY
