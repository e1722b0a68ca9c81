#!/usr/bin/env bash
# Many virtual users on one machine: gojm runs USERS users, each sending
# LOOPS requests to an endpoint that answers after 1 s (the example target's
# /sleep?ms=1000), every request a JTL row; then the same plan with one user
# per gojm process. Figures: the JTL rows and failed rows, peak RSS, memory
# per user beyond the one-user runs, CPU (user + system) of gojm and of the
# targets, requests/s (JTL rows over the span from the first sample's start
# to the last one's end).
#
# gojm needs one socket per user, and one process may open only
# RLIMIT_NOFILE files (its hard limit). Beyond that, the run is split into
# SEGMENTS gojm processes on this machine that meet through one sync folder
# (gojm run --segment i/n --sync-dir DIR, docs/scale-out.md); segment 0
# merges their results. SEGMENTS defaults to the fewest whose users fit the
# limit.
#
# The users are spread over PORTS target processes (ports 18093…) and
# SOURCES loopback source addresses (127.0.0.1…, the plan's
# HTTPSampler.ipSource), so that neither a target's open-files limit nor
# the ephemeral ports of one source address (ip_local_port_range) bound
# the run; both default to one per 10,000 users, at least 4.
#
#   examples/benchmark/scale.sh                    # the most users one process may hold
#   USERS=50000 examples/benchmark/scale.sh        # 50,000 users in 3 segments
#   USERS=15000 SEGMENTS=3 examples/benchmark/scale.sh
#
# PIN=split (the default) runs gojm on CPU 0 and the targets on CPU 1;
# PIN=none lets them share both. Everything listens on 127.0.0.1 only; every
# run is bounded in requests (LOOPS) and time (the plan's 300 s, then a
# 600 s timeout); every process the script starts is stopped when it ends,
# and whatever they write, temporary files included, stays in WORK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

limit=$(ulimit -Hn)
ulimit -n "$limit"
SPARE=${SPARE:-100} # files a process opens besides its sockets: stdio, JTL, epoll, log, sync folder
per=$((limit - SPARE))
USERS=${USERS:-$per}
SEGMENTS=${SEGMENTS:-$(((USERS + per - 1) / per))}
each=$(((USERS + 9999) / 10000))
[ "$each" -ge 4 ] || each=4
PORTS=${PORTS:-$each}
SOURCES=${SOURCES:-$each}
LOOPS=${LOOPS:-10}
RAMP=${RAMP:-$((USERS / 2000 > 10 ? USERS / 2000 : 10))}
PIN=${PIN:-split}
PORT=18093
WORK=${WORK:-/tmp/gojm-scale}
mkdir -p "$WORK/bin" "$WORK/tmp"
export TMPDIR=$WORK/tmp
RUNS=$WORK/runs/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$RUNS"

biggest=$(((USERS + SEGMENTS - 1) / SEGMENTS)) # segment i runs the users k with k mod SEGMENTS = i
if [ $((biggest + SPARE)) -gt "$limit" ]; then
  echo "scale: $USERS users in $SEGMENTS segment(s) put $biggest in one process, which needs about $((biggest + SPARE)) open files; a process may have $limit (RLIMIT_NOFILE hard limit): set SEGMENTS=$(((USERS + per - 1) / per)) or more" >&2
  exit 1
fi
if [ $(((USERS + PORTS - 1) / PORTS + SPARE)) -gt "$limit" ]; then
  echo "scale: $USERS users over $PORTS targets put $(((USERS + PORTS - 1) / PORTS)) sockets in one target, more than its open-files limit $limit allows: raise PORTS" >&2
  exit 1
fi
read -r lo hi < /proc/sys/net/ipv4/ip_local_port_range
if [ $(((USERS + SOURCES - 1) / SOURCES)) -gt $((hi - lo + 1)) ]; then
  echo "scale: $USERS users over $SOURCES source addresses need more than the $((hi - lo + 1)) ephemeral ports of one address: raise SOURCES" >&2
  exit 1
fi
case $PIN in
split) gojm_cpus=0 target_cpus=1 ;;
none) gojm_cpus=0-$(($(nproc) - 1)) target_cpus=$gojm_cpus ;;
*) echo "scale: PIN=$PIN: want split or none" >&2; exit 1 ;;
esac
echo "scale: $USERS users in $SEGMENTS gojm process(es) of at most $biggest (open-files limit $limit, hard), $PORTS targets, $SOURCES source addresses, ephemeral ports $lo-$hi, $RAMP s ramp-up, $LOOPS requests each; gojm on CPU $gojm_cpus, targets on CPU $target_cpus" >&2

[ -x /usr/bin/time ] || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq time >/dev/null; }
(cd "$root" && go build -o "$WORK/bin/gojm" ./cmd/gojm && go build -o "$WORK/bin/target" ./examples/cmd/target)

TARGETS=() # the targets' pids
GOJMS=()   # the pids of /usr/bin/time, each over one gojm (through timeout)
stop_all() {
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
  taskset -c "$target_cpus" env GOMAXPROCS=1 "$WORK/bin/target" -addr 127.0.0.1:$((PORT + i)) > /dev/null &
  TARGETS+=($!)
done
for i in $(seq 0 $((PORTS - 1))); do
  for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/$((PORT + i))) 2>/dev/null && break
    sleep 0.1
  done
  kill -0 "${TARGETS[$i]}" 2>/dev/null || { echo "scale: the target on port $((PORT + i)) did not start" >&2; exit 1; }
done

# targetcpu: the targets' CPU (user + system) so far, in clock ticks.
targetcpu() {
  local t=0 p
  for p in "${TARGETS[@]}"; do
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
  GOJMS=()
  for i in $(seq 0 $((n - 1))); do
    cmd=(-n -t "$here/scale.jmx")
    [ "$n" -eq 1 ] || cmd=(run "$here/scale.jmx" --segment "$i/$n" --sync-dir "$d/sync")
    /usr/bin/time -f '%e %U %S %M' -o "$d/time-$i" timeout 600 taskset -c "$gojm_cpus" \
      "$WORK/bin/gojm" "${cmd[@]}" -l "$d/out-$i.jtl" -j "$d/gojm-$i.log" \
      -Jthreads="$2" -Jloops="$3" -Jrampup="$4" -Jduration=300 -Jport=$PORT -Jports="$PORTS" -Jsources="$SOURCES" \
      > "$d/stdout-$i" 2> "$d/stderr-$i" &
    GOJMS+=($!)
  done
  for p in "${GOJMS[@]}"; do wait "$p" || true; done
  GOJMS=()
  cut -d' ' -f1-3 /proc/loadavg > "$d/load-after"
  targetcpu > "$d/target-cpu-after"
}
run one 1 3 0 1
run many "$USERS" "$LOOPS" "$RAMP" "$SEGMENTS"

python3 - "$RUNS" "$USERS" "$SEGMENTS" "$(getconf CLK_TCK)" <<'PY'
import csv, json, os, sys
runs, users, n, tck = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def figures(name, n):
    d = f"{runs}/{name}"
    times = [open(f"{d}/time-{i}").read().split()[-4:] for i in range(n)]
    rows = [r for i in range(n) for r in csv.DictReader(open(f"{d}/out-{i}.jtl"))]
    start = min(int(r["timeStamp"]) for r in rows)
    end = max(int(r["timeStamp"]) + int(r["elapsed"]) for r in rows)
    failed = [r for r in rows if r["success"] != "true"]
    merged = None
    if n > 1 and os.path.exists(f"{d}/sync/statistics.json"):
        merged = json.load(open(f"{d}/sync/statistics.json"))["Total"]["sampleCount"]
    target = (int(open(f"{d}/target-cpu-after").read()) - int(open(f"{d}/target-cpu-before").read())) / tck
    return dict(wall=max(float(t[0]) for t in times), cpu=sum(float(t[1]) + float(t[2]) for t in times),
                rss=sum(int(t[3]) for t in times), rss_max=max(int(t[3]) for t in times), target=target,
                rows=len(rows), failed=len(failed), span=(end - start) / 1000, merged=merged,
                load=open(f"{d}/load-before").read().split() + open(f"{d}/load-after").read().split(),
                first_failure=failed[0]["responseMessage"] if failed else "")
one, many = figures("one", 1), figures("many", n)
# Beyond n one-user processes: the one-user run once, n times.
per_user = (many["rss"] - n * one["rss"]) / (users - n)
seg = f" in {n} gojm processes" if n > 1 else ""
print(f"users {users:,}{seg}: {many['rows']:,} JTL rows, {many['failed']:,} failed{' (' + many['first_failure'] + ')' if many['failed'] else ''}"
      + (f"; the merged statistics count {many['merged']:,} samples" if many["merged"] is not None else ""))
if n > 1:
    print(f"  peak RSS {many['rss'] / 1024:.0f} MiB, the sum of the processes' peaks (the largest {many['rss_max'] / 1024:.0f} MiB); "
          f"one user {one['rss'] / 1024:.1f} MiB; {per_user:.1f} KiB per user beyond {n} one-user runs")
else:
    print(f"  peak RSS {many['rss'] / 1024:.0f} MiB; one user {one['rss'] / 1024:.1f} MiB; {per_user:.1f} KiB per user beyond the one-user run")
print(f"  gojm CPU {many['cpu']:.2f} s (user + system) in {many['wall']:.1f} s wall, {many['cpu'] / many['rows'] * 1e6:.0f} µs per request; "
      f"targets {many['target']:.2f} s, {many['target'] / many['rows'] * 1e6:.0f} µs per request")
print(f"  {many['rows'] / many['span']:,.0f} requests/s over {many['span']:.1f} s, first sample's start to last one's end")
print(f"  load average (1, 5, 15 min) {' '.join(many['load'][:3])} before, {' '.join(many['load'][3:])} after")
PY
echo "scale: runs in $RUNS" >&2
