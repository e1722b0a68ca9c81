#!/usr/bin/env bash
# Many virtual users on one machine: gojm runs USERS users, each sending
# LOOPS requests to an endpoint that answers after 1 s (nginx's echo_sleep,
# or with TARGET=go the example target's /sleep?ms=1000), every request a
# JTL row; first the same plan with one user in each of its five thread
# groups, as one process and as the segments. Figures: the JTL rows and failed rows, peak RSS, memory per user
# beyond the five-user runs, CPU (user + system) of gojm and of the targets,
# requests/s (JTL rows over the span from the first sample's start to the
# last one's end), the load average.
#
# gojm needs one socket per user, and one process may open only
# RLIMIT_NOFILE files (its hard limit). Beyond that, the run is split into
# SEGMENTS gojm processes on this machine that meet through one sync folder
# (gojm run --segment i/n --sync-dir DIR, docs/scale-out.md); segment 0
# merges their results. SEGMENTS defaults to the fewest whose users fit the
# limit.
#
# The plan spreads the users over 8 target ports (18093–18100: one nginx
# whose workers share them, or 8 example targets) and 8 loopback source
# addresses (127.0.0.1–8, its HTTPSampler.ipSource), so that neither a
# target's open-files limit nor the ephemeral ports of one source address
# (ip_local_port_range) bound the run.
#
#   examples/benchmark/scale.sh                    # the most users one process may hold (at most 50,000)
#   USERS=50000 examples/benchmark/scale.sh        # 50,000 users in 3 segments
#   USERS=15000 SEGMENTS=3 examples/benchmark/scale.sh
#
# PIN=none (the default) lets gojm and the targets share every CPU: at these
# counts gojm needs more than one (docs/performance.md); PIN=split runs
# gojm on CPU 0 and the targets on CPU 1. Everything listens on 127.0.0.1
# only; every run is bounded in requests (LOOPS) and time (the plan's
# 300 s, then a 600 s timeout); every process the script starts is stopped
# when it ends, and whatever they write, temporary files included, stays
# in WORK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

limit=$(ulimit -Hn)
ulimit -n "$limit"
SPARE=${SPARE:-100} # files a process opens besides its sockets: stdio, JTL, epoll, log, sync folder
per=$((limit - SPARE))
PORTS=8 SOURCES=8 # as scale.jmx's User Parameters table has them
NGROUPS=5 # scale.jmx's thread groups, of USERS / NGROUPS users each
read -r lo hi < /proc/sys/net/ipv4/ip_local_port_range
# By default the most users one process may hold, at most 50,000 and what
# the source addresses' ephemeral ports allow, a multiple of NGROUPS.
default=$per
[ "$default" -le 50000 ] || default=50000
[ "$default" -le $((SOURCES * (hi - lo + 1))) ] || default=$((SOURCES * (hi - lo + 1)))
USERS=${USERS:-$((default / NGROUPS * NGROUPS))}
SEGMENTS=${SEGMENTS:-$(((USERS + per - 1) / per))}
if [ $((USERS % NGROUPS)) -ne 0 ]; then
  echo "scale: USERS=$USERS: want a multiple of $NGROUPS, the plan's thread groups" >&2
  exit 1
fi
# A thread group's ramp-up step is whole milliseconds, as JMeter's: each
# group starts a user every 2 ms, 2,500 a second in all. Each user's LOOPS
# must outlast the ramp-up, so that every user runs at once (the figures
# say how many did).
RAMP=${RAMP:-$((USERS / NGROUPS / 500 > 1 ? USERS / NGROUPS / 500 : 1))}
LOOPS=${LOOPS:-$((10 + RAMP / 4))}
PIN=${PIN:-none}
TARGET=${TARGET:-nginx}
PORT=18093
WORK=${WORK:-/tmp/gojm-scale}
# Segment i runs each group's users k with k mod SEGMENTS = i.
biggest=$((NGROUPS * ((USERS / NGROUPS + SEGMENTS - 1) / SEGMENTS)))
if [ $((biggest + SPARE)) -gt "$limit" ]; then
  echo "scale: $USERS users in $SEGMENTS segment(s) put $biggest in one process, which needs about $((biggest + SPARE)) open files; a process may have $limit (RLIMIT_NOFILE hard limit): set SEGMENTS=$(((USERS + per - 1) / per)) or more" >&2
  exit 1
fi
if [ $(((USERS + PORTS - 1) / PORTS + SPARE)) -gt "$limit" ]; then
  echo "scale: $USERS users over $PORTS targets put $(((USERS + PORTS - 1) / PORTS)) sockets in one target, more than its open-files limit $limit allows" >&2
  exit 1
fi
if [ $(((USERS + SOURCES - 1) / SOURCES)) -gt $((hi - lo + 1)) ]; then
  echo "scale: $USERS users over $SOURCES source addresses need more than the $((hi - lo + 1)) ephemeral ports of one address" >&2
  exit 1
fi
case $PIN in
split) gojm_cpus=0 target_cpus=1 ;;
none) gojm_cpus=0-$(($(nproc) - 1)) target_cpus=$gojm_cpus ;;
*) echo "scale: PIN=$PIN: want split or none" >&2; exit 1 ;;
esac
mkdir -p "$WORK/bin" "$WORK/tmp"
export TMPDIR=$WORK/tmp
RUNS=$WORK/runs/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$RUNS"

echo "scale: $USERS users in $SEGMENTS gojm process(es) of at most $biggest (open-files limit $limit, hard), $TARGET on $PORTS ports, $SOURCES source addresses, ephemeral ports $lo-$hi, $NGROUPS thread groups of $((USERS / NGROUPS)) users side by side, each with $RAMP s ramp-up, $LOOPS requests a user; gojm on CPU $gojm_cpus, targets on CPU $target_cpus" >&2

install() { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null; }
[ -x /usr/bin/time ] || install time
echo_module=/usr/lib/nginx/modules/ngx_http_echo_module.so
case $TARGET in
nginx) [ -f "$echo_module" ] || install nginx-light libnginx-mod-http-echo ;;
go) ;;
*) echo "scale: TARGET=$TARGET: want nginx or go" >&2; exit 1 ;;
esac
(cd "$root" && go build -o "$WORK/bin/gojm" ./cmd/gojm && { [ "$TARGET" != go ] || go build -o "$WORK/bin/target" ./examples/cmd/target; })

TARGETS=() # the targets' pids
GOJMS=()   # the pids of /usr/bin/time, each over one gojm (through timeout)
LOADS=     # the pid of the loop that samples the load average
stop_all() {
  [ -z "$LOADS" ] || kill "$LOADS" 2>/dev/null || true
  # timeout passes the signal on to gojm, which flushes its results and
  # exits; then time writes its figures and exits.
  for p in "${GOJMS[@]}"; do
    for c in $(ps -o pid= --ppid "$p" 2>/dev/null); do kill "$c" 2>/dev/null || true; done
  done
  for p in "${TARGETS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop_all EXIT
trap 'exit 130' INT TERM HUP
for i in $(seq 0 $((PORTS - 1))); do
  if (exec 3<>/dev/tcp/127.0.0.1/$((PORT + i))) 2>/dev/null; then
    echo "scale: port $((PORT + i)) is taken by another process" >&2
    exit 1
  fi
done
if [ "$TARGET" = nginx ]; then
  # One nginx, its workers sharing every port (reuseport), each holding
  # at most about USERS / workers connections, within its open-files limit.
  workers=$(((USERS + 14999) / 15000))
  [ "$workers" -ge 4 ] || workers=4
  mkdir -p "$WORK/nginx/logs" "$WORK/nginx/tmp"
  {
    echo "load_module $echo_module;"
    echo "daemon off; master_process on; worker_processes $workers; worker_rlimit_nofile $limit;"
    echo "pid nginx.pid; error_log logs/error.log warn;"
    echo "events { worker_connections $((limit - SPARE)); }"
    echo "http {"
    echo "  access_log off; server_tokens off; keepalive_timeout 300; keepalive_requests 100000000;"
    echo "  client_body_temp_path tmp/body; proxy_temp_path tmp/proxy; fastcgi_temp_path tmp/fastcgi; uwsgi_temp_path tmp/uwsgi; scgi_temp_path tmp/scgi;"
    echo "  server {"
    for i in $(seq 0 $((PORTS - 1))); do echo "    listen 127.0.0.1:$((PORT + i)) reuseport backlog=4096;"; done
    echo '    location = /sleep { echo_sleep $arg_s; echo "slept $arg_s s"; }'
    echo "  }"
    echo "}"
  } > "$WORK/nginx/nginx.conf"
  taskset -c "$target_cpus" nginx -p "$WORK/nginx/" -e logs/error.log -c "$WORK/nginx/nginx.conf" &
  TARGETS+=($!)
  path=/sleep?s=1
else
  for i in $(seq 0 $((PORTS - 1))); do
    taskset -c "$target_cpus" env GOMAXPROCS=1 "$WORK/bin/target" -addr 127.0.0.1:$((PORT + i)) > /dev/null &
    TARGETS+=($!)
  done
  path=/sleep?ms=1000
fi
for i in $(seq 0 $((PORTS - 1))); do
  for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/$((PORT + i))) 2>/dev/null && break
    sleep 0.1
  done
done
for p in "${TARGETS[@]}"; do
  kill -0 "$p" 2>/dev/null || { echo "scale: a target did not start" >&2; exit 1; }
done

# targetcpu: the targets' CPU (user + system) so far, nginx's workers
# included, in clock ticks.
targetcpu() {
  local t=0 p
  for p in "${TARGETS[@]}" $(for p in "${TARGETS[@]}"; do ps -o pid= --ppid "$p"; done); do
    t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$t"
}

# run NAME USERS LOOPS RAMP SEGMENTS: one run in $RUNS/NAME, segment i's
# files named -i. One process runs with JMeter's defaults (only the JTL);
# segments also write their results folders in the sync folder, and
# segment 0 the merged one.
run() {
  local d=$RUNS/$1 n=$5 i cmd
  mkdir -p "$d"
  targetcpu > "$d/target-cpu-before"
  cut -d' ' -f1-3 /proc/loadavg > "$d/load-before"
  while sleep 5; do cut -d' ' -f1 /proc/loadavg; done > "$d/load-during" &
  LOADS=$!
  GOJMS=()
  for i in $(seq 0 $((n - 1))); do
    cmd=(-n -t "$here/scale.jmx")
    [ "$n" -eq 1 ] || cmd=(run "$here/scale.jmx" --segment "$i/$n" --sync-dir "$d/sync")
    /usr/bin/time -f '%e %U %S %M' -o "$d/time-$i" timeout 600 taskset -c "$gojm_cpus" \
      "$WORK/bin/gojm" "${cmd[@]}" -l "$d/out-$i.jtl" -j "$d/gojm-$i.log" \
      -Jthreads="$2" -Jloops="$3" -Jrampup="$4" -Jduration=300 -Jpath="$path" \
      > "$d/stdout-$i" 2> "$d/stderr-$i" &
    GOJMS+=($!)
  done
  for p in "${GOJMS[@]}"; do wait "$p" || true; done
  GOJMS=()
  kill "$LOADS"
  LOADS=
  cut -d' ' -f1-3 /proc/loadavg > "$d/load-after"
  targetcpu > "$d/target-cpu-after"
}
run one 1 3 0 1                                       # a user in each group
[ "$SEGMENTS" -eq 1 ] || run ones 1 3 0 "$SEGMENTS" # the same in segments (all in segment 0)
run many $((USERS / NGROUPS)) "$LOOPS" "$RAMP" "$SEGMENTS"

python3 - "$RUNS" "$USERS" "$SEGMENTS" "$(getconf CLK_TCK)" "$NGROUPS" <<'PY'
import csv, json, os, sys
runs, users, n, tck, groups = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def figures(name, n):
    d = f"{runs}/{name}"
    times = [open(f"{d}/time-{i}").read().split()[-4:] for i in range(n)]
    rows = [r for i in range(n) for r in csv.DictReader(open(f"{d}/out-{i}.jtl"))]
    start = min(int(r["timeStamp"]) for r in rows)
    end = max(int(r["timeStamp"]) + int(r["elapsed"]) for r in rows)
    failed = [r for r in rows if r["success"] != "true"]
    # Each row's allThreads counts its own segment's running users.
    running = sum(max((int(r["allThreads"]) for r in csv.DictReader(open(f"{d}/out-{i}.jtl"))), default=0) for i in range(n))
    merged = None
    if n > 1 and os.path.exists(f"{d}/sync/statistics.json"):
        merged = json.load(open(f"{d}/sync/statistics.json"))["Total"]["sampleCount"]
    target = (int(open(f"{d}/target-cpu-after").read()) - int(open(f"{d}/target-cpu-before").read())) / tck
    return dict(wall=max(float(t[0]) for t in times), cpu=sum(float(t[1]) + float(t[2]) for t in times),
                rss=sum(int(t[3]) for t in times), rss_max=max(int(t[3]) for t in times), target=target,
                rows=len(rows), failed=len(failed), running=running, span=(end - start) / 1000, merged=merged,
                load=open(f"{d}/load-before").read().split() + open(f"{d}/load-after").read().split(),
                during=[float(x) for x in open(f"{d}/load-during").read().split()],
                first_failure=failed[0]["responseMessage"] if failed else "")
one, many = figures("one", 1), figures("many", n)
# Beyond n small processes: the five-user run n times; for a split run also
# beyond n small segments, which write their results folders too.
per_user = (many["rss"] - n * one["rss"]) / (users - n * groups)
if n > 1:
    ones = figures("ones", n)
    per_user_seg = (many["rss"] - ones["rss"]) / (users - groups)
seg = f" in {n} gojm processes" if n > 1 else ""
print(f"users {users:,}{seg}: {many['rows']:,} JTL rows, {many['failed']:,} failed{' (' + many['first_failure'] + ')' if many['failed'] else ''}"
      + (f"; the merged statistics count {many['merged']:,} samples" if many["merged"] is not None else "")
      + ("" if many["merged"] in (None, many["rows"]) else " (not the same!)"))
if n > 1:
    print(f"  peak RSS {many['rss'] / 1024:.0f} MiB, the sum of the processes' peaks (the largest {many['rss_max'] / 1024:.0f} MiB); "
          f"{groups} users {one['rss'] / 1024:.1f} MiB, as {n} segments {ones['rss'] / 1024:.1f} MiB; "
          f"{per_user_seg:.1f} KiB per user beyond those segments, {per_user:.1f} beyond {n} {groups}-user runs")
else:
    print(f"  peak RSS {many['rss'] / 1024:.0f} MiB; {groups} users {one['rss'] / 1024:.1f} MiB; {per_user:.1f} KiB per user beyond the {groups}-user run")
print(f"  gojm CPU {many['cpu']:.2f} s (user + system) in {many['wall']:.1f} s wall, {many['cpu'] / many['rows'] * 1e6:.0f} µs per request; "
      f"targets {many['target']:.2f} s, {many['target'] / many['rows'] * 1e6:.0f} µs per request")
print(f"  {many['running']:,} users running at once at the most (the segments' largest allThreads, added)"
      + ("" if many["running"] == users else "; not all: raise LOOPS"))
print(f"  {many['rows'] / many['span']:,.0f} requests/s over {many['span']:.1f} s, first sample's start to last one's end")
during = f"{min(many['during']):.2f}–{max(many['during']):.2f} every 5 s during, " if many["during"] else ""
print(f"  load average (1, 5, 15 min) {' '.join(many['load'][:3])} before, {during}{' '.join(many['load'][3:])} after")
PY
echo "scale: runs in $RUNS" >&2
