#!/usr/bin/env bash
# Many virtual users on one machine: gojm runs USERS users, each sending
# LOOPS requests to an endpoint that answers after 1 s (the example target's
# /sleep?ms=1000), every request a JTL row; then the same plan with one user.
# Figures: peak RSS, memory per user beyond the one-user run, CPU (user +
# system), requests/s (JTL rows over the span from the first sample's start
# to the last one's end), failed rows.
#
# The users are spread over PORTS target processes (ports 18093…) and
# SOURCES loopback source addresses (127.0.0.1…, the plan's
# HTTPSampler.ipSource), so that neither the ephemeral ports of one
# source/destination pair (ip_local_port_range) nor one target's open files
# limit the run. gojm needs one socket per user: its own open-files limit
# (RLIMIT_NOFILE) caps USERS, and the script says so before it starts.
#
#   examples/benchmark/scale.sh                   # the largest count the limit allows
#   USERS=50000 PORTS=8 SOURCES=4 examples/benchmark/scale.sh   # where it allows 50,000
#
# gojm runs pinned to CPU 0, the targets to CPU 1. Everything listens on
# 127.0.0.1 only; every run is bounded in requests and time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

limit=$(ulimit -Hn)
ulimit -n "$limit"
SPARE=${SPARE:-100} # files gojm opens besides its sockets: stdio, JTL, epoll, log
USERS=${USERS:-$((limit - SPARE))}
LOOPS=${LOOPS:-10}
RAMP=${RAMP:-10}
PORTS=${PORTS:-4}
SOURCES=${SOURCES:-4}
PORT=18093
WORK=${WORK:-/tmp/gojm-scale}
mkdir -p "$WORK/bin"
RUNS=$WORK/runs/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$RUNS"

if [ $((USERS + SPARE)) -gt "$limit" ]; then
  echo "scale: $USERS users need about $((USERS + SPARE)) open files; this process may have $limit (RLIMIT_NOFILE hard limit)" >&2
  exit 1
fi
echo "scale: $USERS users: open-files limit $limit (hard), ephemeral ports $(tr '\t' '-' < /proc/sys/net/ipv4/ip_local_port_range) per source/destination pair; $PORTS targets, $SOURCES source addresses" >&2

[ -x /usr/bin/time ] || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq time >/dev/null; }
(cd "$root" && go build -o "$WORK/bin/gojm" ./cmd/gojm && go build -o "$WORK/bin/target" ./examples/cmd/target)

TARGETS=()
stop_all() {
  for p in "${TARGETS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop_all EXIT
for i in $(seq 0 $((PORTS - 1))); do
  taskset -c 1 env GOMAXPROCS=1 "$WORK/bin/target" -addr 127.0.0.1:$((PORT + i)) > /dev/null &
  TARGETS+=($!)
done
for i in $(seq 0 $((PORTS - 1))); do
  for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/$((PORT + i))) 2>/dev/null && break
    sleep 0.1
  done
done

# run NAME USERS LOOPS RAMP: one run in $RUNS/NAME.
run() {
  local d=$RUNS/$1
  mkdir -p "$d"
  /usr/bin/time -f '%e %U %S %M' -o "$d/time" timeout 600 taskset -c 0 \
    "$WORK/bin/gojm" -n -t "$here/scale.jmx" -l "$d/out.jtl" -j "$d/gojm.log" \
    -Jthreads="$2" -Jloops="$3" -Jrampup="$4" -Jduration=300 -Jport=$PORT -Jports="$PORTS" -Jsources="$SOURCES" \
    > "$d/stdout" 2> "$d/stderr" || true
}
run one 1 3 0
run many "$USERS" "$LOOPS" "$RAMP"

python3 - "$RUNS" "$USERS" <<'PY'
import csv, sys
runs, users = sys.argv[1], int(sys.argv[2])
def figures(name):
    wall, user, sys_, rss = open(f"{runs}/{name}/time").read().split()[-4:]
    rows = list(csv.DictReader(open(f"{runs}/{name}/out.jtl")))
    start = min(int(r["timeStamp"]) for r in rows)
    end = max(int(r["timeStamp"]) + int(r["elapsed"]) for r in rows)
    failed = [r for r in rows if r["success"] != "true"]
    return dict(wall=float(wall), cpu=float(user) + float(sys_), rss=int(rss), rows=len(rows),
                failed=len(failed), span=(end - start) / 1000, first_failure=failed[0]["responseMessage"] if failed else "")
one, many = figures("one"), figures("many")
per_user = (many["rss"] - one["rss"]) / (users - 1)
print(f"users {users:,}: {many['rows']:,} JTL rows, {many['failed']:,} failed{' (' + many['first_failure'] + ')' if many['failed'] else ''}")
print(f"  peak RSS {many['rss'] / 1024:.0f} MiB; one user {one['rss'] / 1024:.1f} MiB; {per_user:.1f} KiB per user beyond the one-user run")
print(f"  CPU {many['cpu']:.2f} s (user + system) in {many['wall']:.1f} s wall, {many['cpu'] / many['rows'] * 1e6:.0f} µs per request")
print(f"  {many['rows'] / many['span']:,.0f} requests/s over {many['span']:.1f} s, first sample's start to last one's end")
PY
echo "scale: runs in $RUNS" >&2
