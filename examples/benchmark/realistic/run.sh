#!/usr/bin/env bash
# The realistic plan (realistic.jmx beside this script) through gojm and
# through real JMeter 2.13, against the same nginx on the loopback: client
# CPU per sample for both, and their ratio.
#
# nginx (one worker, pinned to CPU 1, a temporary configuration) answers
# /api/… with a 1.5 KB JSON document and a session cookie. Each tool runs
# pinned to CPU 0 under /usr/bin/time, THREADS users × LOOPS iterations,
# REPS times, the two tools taking turns. CPU per sample is (user + system)
# of the tool's process over the samples its JTL holds, once with start-up
# and once beyond a run of one sample (start-up: the JVM's, or gojm's).
# JMeter 2.13 has no JSON Extractor (it came in JMeter 3.0), so both tools
# run the plan without it; gojm also runs the whole plan.
#
#   examples/benchmark/realistic/run.sh          # 3 runs of 10 × 2,000
#   REPS=1 LOOPS=200 examples/benchmark/realistic/run.sh   # a quick look
#
# JMeter 2.13 is ../shared/oracle/jmeter213 from the repository root, with
# Debian's groovy linked into /usr/share/jmeter/lib for the JSR223 element.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

REPS=${REPS:-3}
THREADS=${THREADS:-10}
LOOPS=${LOOPS:-2000}
PORT=${PORT:-18092}
WORK=${WORK:-$(mktemp -d /tmp/gojm-realistic.XXXXXX)}
JMETER=${JMETER:-$root/../shared/oracle/jmeter213}
mkdir -p "$WORK/bin"
chmod 755 "$WORK" # nginx's worker reads the page as another user

# ---------------------------------------------------------------- tools
pkgs=()
command -v nginx >/dev/null || pkgs+=(nginx-light)
[ -x /usr/bin/time ] || pkgs+=(time)
command -v taskset >/dev/null || pkgs+=(util-linux)
[ -f /usr/share/java/groovy-all.jar ] || pkgs+=(groovy)
if [ ${#pkgs[@]} -gt 0 ]; then
  echo "realistic: installing ${pkgs[*]}" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${pkgs[@]}" >/dev/null
fi
[ -x "$JMETER" ] || { echo "realistic: no JMeter 2.13 at $JMETER" >&2; exit 1; }
(cd "$WORK" && "$JMETER" --version >/dev/null 2>&1) || true # installs Debian's jmeter on first use; jmeter.log goes to $WORK
if [ ! -e /usr/share/jmeter/lib/groovy-all.jar ]; then
  ln -s /usr/share/java/groovy-all.jar /usr/share/jmeter/lib/groovy-all.jar
fi
(cd "$root" && go build -o "$WORK/bin/gojm" ./cmd/gojm)

# ---------------------------------------------------------------- plans
# The plan as it is, and without its JSON Extractor for JMeter 2.13.
mkdir -p "$WORK/plan"
cp "$here/realistic.jmx" "$here/users.csv" "$WORK/plan/"
python3 - "$here/realistic.jmx" "$WORK/plan/realistic-2.13.jmx" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s, n = re.subn(r'\s*<JSONPostProcessor .*?</JSONPostProcessor>\s*<hashTree/>', '', s, flags=re.S)
assert n == 1, "the plan's JSON Extractor was not found"
open(sys.argv[2], "w").write(s)
PY

# ---------------------------------------------------------------- nginx
d=$WORK/nginx
mkdir -p "$d/html" "$d/logs"
cp "$here/orders.json" "$d/html/orders.json"
cat > "$d/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $d/logs/error.log;
pid $d/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  types { application/json json; }
  server {
    listen 127.0.0.1:$PORT;
    root $d/html;
    location /api/ {
      default_type application/json;
      add_header Set-Cookie "SESSION=8F2A1C9D3E4B5F60; Path=/; HttpOnly";
      try_files /orders.json =404;
    }
  }
}
CONF
taskset -c 1 nginx -p "$d" -c "$d/nginx.conf" &
NGINX=$!
trap 'kill $NGINX 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break
  sleep 0.1
done

# ---------------------------------------------------------------- runs
# run NAME PLAN THREADS LOOPS: one run, its figures appended to $WORK/runs.tsv.
run() {
  local name=$1 plan=$2 threads=$3 loops=$4 i=$5
  local out=$WORK/out/$name-$threads-$loops-$i
  mkdir -p "$out"
  local cmd=("$WORK/bin/gojm")
  [ "${name%%-*}" = jmeter ] && cmd=("$JMETER")
  (cd "$out" && /usr/bin/time -f '%e %U %S %M' -o "$out/time" timeout 600 taskset -c 0 \
    "${cmd[@]}" -n -t "$plan" -l "$out/out.jtl" -Jthreads="$threads" -Jloops="$loops" -Jhost=127.0.0.1 -Jport="$PORT" \
    -Jjmeter.save.saveservice.print_field_names=true \
    > "$out/stdout" 2> "$out/stderr") || true # in $out: JMeter writes jmeter.log where it starts
  python3 - "$out" "$name" "$threads" "$loops" >> "$WORK/runs.tsv" <<'PY'
import csv, sys
out, name, threads, loops = sys.argv[1:]
wall, user, sys_, rss = open(out + "/time").read().split()[-4:]
rows = list(csv.DictReader(open(out + "/out.jtl")))
failed = sum(1 for r in rows if r["success"] != "true")
start = min(int(r["timeStamp"]) for r in rows)
end = max(int(r["timeStamp"]) + int(r["elapsed"]) for r in rows)
rps = len(rows) / max((end - start) / 1000, 0.001)  # first sample's start to the last one's end
el = sorted(int(r["elapsed"]) for r in rows)
def pct(p):  # JMeter's dashboard: position p(n+1), interpolated
    k = min(max(p * (len(el) + 1) - 1, 0), len(el) - 1)
    i = int(k)
    return el[i] + (el[min(i + 1, len(el) - 1)] - el[i]) * (k - i)
print(name, threads, loops, len(rows), failed, wall, float(user) + float(sys_), rss, f"{rps:.0f}", pct(0.5), pct(0.99), sep="\t")
PY
}

: > "$WORK/runs.tsv"
for tool in gojm gojm-2.13plan jmeter-2.13plan; do
  case $tool in gojm) plan=$WORK/plan/realistic.jmx ;; *) plan=$WORK/plan/realistic-2.13.jmx ;; esac
  run "$tool" "$plan" 1 1 0   # start-up
done
for i in $(seq "$REPS"); do
  run gojm "$WORK/plan/realistic.jmx" "$THREADS" "$LOOPS" "$i"
  run gojm-2.13plan "$WORK/plan/realistic-2.13.jmx" "$THREADS" "$LOOPS" "$i"
  run jmeter-2.13plan "$WORK/plan/realistic-2.13.jmx" "$THREADS" "$LOOPS" "$i"
done

python3 - "$WORK/runs.tsv" <<'PY'
import statistics, sys
runs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
start = {r[0]: float(r[6]) for r in runs if r[1] == "1" and r[2] == "1"}
per = {}
print(f"{'tool (plan)':<18} {'samples':>8} {'failed':>6} {'wall s':>7} {'CPU s':>7} {'RSS MiB':>8} {'req/s':>7} {'p50/p99 ms':>11} {'µs/sample':>10} {'beyond start-up':>16}")
for name, threads, loops, n, failed, wall, cpu, rss, rps, p50, p99 in runs:
    if threads == "1" and loops == "1":
        continue
    n, cpu = int(n), float(cpu)
    us, beyond = cpu / n * 1e6, (cpu - start[name]) / n * 1e6
    per.setdefault(name, []).append((us, beyond))
    print(f"{name:<18} {n:>8} {failed:>6} {wall:>7} {cpu:>7.2f} {int(rss) / 1024:>8.1f} {rps:>7} {float(p50):>5.1f}/{float(p99):<5.1f} {us:>10.1f} {beyond:>16.1f}")
print("start-up CPU (1 sample): " + ", ".join(f"{k} {v:.2f} s" for k, v in start.items()))
med = {k: (statistics.median(a for a, _ in v), statistics.median(b for _, b in v)) for k, v in per.items()}
for k, (a, b) in med.items():
    print(f"median {k}: {a:.1f} µs per sample, {b:.1f} µs beyond start-up")
if "gojm-2.13plan" in med and "jmeter-2.13plan" in med:
    g, j = med["gojm-2.13plan"], med["jmeter-2.13plan"]
    print(f"JMeter 2.13 / gojm on the same plan: {j[0] / g[0]:.1f}× ({j[1] / g[1]:.1f}× beyond start-up)")
PY
echo "realistic: runs in $WORK" >&2
