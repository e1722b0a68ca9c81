#!/usr/bin/env bash
# Runs every real plan of the corpora (corpus/jmx, corpus/seed and
# corpus/repos, or those SETS names) end to end, each for at most CAP
# seconds, inside a network namespace that has only the loopback: the
# plans' host names resolve to 127.0.0.1 (a hosts file bound over
# /etc/hosts in a private mount namespace), and the example target answers
# on every port the plans name (TLS on 443 and 8443). Nothing leaves the
# machine, and nothing is written outside OUT: the plans run from copies
# there, and the rest of the file system is read-only to them (plans name
# results files of their own, some with absolute paths). A plan of
# corpus/jmx or corpus/seed runs from its folder; a plan of corpus/repos
# runs from its repository's folder, beside the data files it names, as
# its users run it. A plan still running at CAP gets SIGINT, as a user's
# Ctrl-C.
#
# What it checks is robustness, not results: no panic, no data race (with
# RACE=1), no run that outlives its Ctrl-C by 20 seconds, and the summary
# printed at the end of every run that started (one whose Ctrl-C came
# before it opened its results file is "early"). It prints one line per plan
# and a tally; the outputs stay in OUT.
#
#   scripts/corpus-run.sh                 # CAP=10 OUT=/tmp/gojm-corpus-run
#   RACE=1 scripts/corpus-run.sh          # the same with a race-detector build
#   SETS=repos CAP=5 scripts/corpus-run.sh # corpus/repos only
#
# Needs root (unshare) and ../shared/corpus. Takes up to CAP+grace seconds
# per plan: 25 to 50 minutes for the 272 plans with CAP=10.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

CAP=${CAP:-10}
OUT=${OUT:-/tmp/gojm-corpus-run}
CORPUS=${CORPUS:-../shared/corpus}
SETS=${SETS:-jmx seed repos}

if [ "$(id -u)" != 0 ]; then
  echo "corpus-run: needs root for its network namespace" >&2
  exit 2
fi
rm -rf "$OUT"
mkdir -p "$OUT/runs" "$OUT/bin" "$OUT/plans"
OUT=$(cd "$OUT" && pwd)
plans=()
for set in $SETS; do
  cp -r "$CORPUS/$set" "$OUT/plans/"
  if [ "$set" = repos ]; then
    while IFS= read -r -d '' plan; do plans+=("$plan"); done \
      < <(find "$OUT/plans/repos" -mindepth 2 -name '*.jmx' -print0 | sort -z)
  else
    plans+=("$OUT/plans/$set"/*.jmx)
  fi
done

race=()
if [ "${RACE:-0}" = 1 ]; then race=(-race); fi
go build "${race[@]}" -o "$OUT/bin/gojm" ./cmd/gojm
go build -o "$OUT/bin/target" ./examples/cmd/target

# Every host name and port the plans spell out. Names behind variables
# that are not set in the plan stay unresolved: those samples fail, as
# they would with JMeter on a machine that cannot resolve them.
cat "${plans[@]}" |
  grep -oE '(HTTPSampler\.domain|Argument\.value)">[A-Za-z0-9.-]+\.[A-Za-z]{2,}<|https?://[A-Za-z0-9.-]+' |
  sed -E 's/.*">//; s/<$//; s|https?://||' | tr 'A-Z' 'a-z' | grep -vE '^[0-9.]+$' | sort -u > "$OUT/hostnames"
{
  echo "127.0.0.1 localhost"
  sed 's/^/127.0.0.1 /' "$OUT/hostnames"
} > "$OUT/hosts"
{
  printf '80\n443\n8080\n8443\n'
  cat "${plans[@]}" | grep -oE 'HTTPSampler\.port">[0-9]{1,5}<' | grep -oE '[0-9]+'
} | awk '$1 > 0 && $1 < 65536' | sort -un > "$OUT/ports"
echo "corpus-run: ${#plans[@]} plans, $(wc -l < "$OUT/hostnames") host names, ports $(tr '\n' ' ' < "$OUT/ports")"

# The part that runs inside the namespace.
cat > "$OUT/inside.sh" <<'EOF'
set -u
ip link set lo up
mount --bind "$OUT/hosts" /etc/hosts
mount --bind "$OUT" "$OUT"
mount -o remount,bind,ro /
while read -r port; do
  tls=()
  case $port in 443 | 8443) tls=(-tls) ;; esac
  "$OUT/bin/target" -addr "127.0.0.1:$port" "${tls[@]}" > /dev/null 2>> "$OUT/target.log" &
done < "$OUT/ports"
while read -r port; do # until every target listens
  for _ in $(seq 100); do
    (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break
    sleep 0.1
  done
done < "$OUT/ports"
printf '%-8s %6s %5s %8s  %s\n' outcome exit secs jtl_rows plan
for plan in "$@"; do
  # Started from the plan's folder, or its repository's, as JMeter users
  # do, so that relative data files resolve as they would.
  case $plan in
  "$OUT/plans/repos/"*)
    repo=${plan#"$OUT/plans/repos/"}
    repo=${repo%%/*}
    work="$OUT/plans/repos/$repo" name="repos__$repo" ;;
  *) work=$(dirname "$plan") name=$(basename "$plan" .jmx) ;;
  esac
  run="$OUT/runs/$name"
  mkdir -p "$run"
  start=$(date +%s)
  (cd "$work" && timeout -s INT -k 20 "$CAP" \
    "$OUT/bin/gojm" -n -t "${plan#"$work/"}" -l "$run/results.jtl" -j "$run/gojm.log" \
    --stop-grace 5s > "$run/stdout" 2> "$run/stderr")
  rc=$?
  secs=$(($(date +%s) - start))
  rows=0
  if [ -s "$run/results.jtl" ]; then rows=$(($(wc -l < "$run/results.jtl") - 1)); fi
  if grep -qE '^(panic:|fatal error:)|WARNING: DATA RACE' "$run/stderr" "$run/stdout"; then
    outcome=CRASH
  elif [ $rc = 137 ]; then
    outcome=HUNG # still running 20 s after its Ctrl-C
  elif [ $rc != 0 ] && [ $rc != 124 ]; then
    outcome=refused
  elif [ $rc = 124 ] && [ ! -e "$run/results.jtl" ]; then
    outcome=early # the Ctrl-C came before the run started (a loaded machine)
  elif ! grep -q 'summary =' "$run/stdout"; then
    outcome=NOSUMMARY
  elif [ $rc = 124 ]; then
    outcome=capped
  else
    outcome=done
  fi
  printf '%-8s %6s %5s %8s  %s\n' $outcome $rc $secs $rows "$name"
done
kill $(jobs -p) 2> /dev/null
wait
EOF
export OUT CAP
unshare -n -m bash "$OUT/inside.sh" "${plans[@]}" | tee "$OUT/summary.txt"
echo
awk 'NR > 1 {n[$1]++} END {for (o in n) printf "%s %d\n", o, n[o]}' "$OUT/summary.txt" | sort
if grep -qE '^(CRASH|HUNG|NOSUMMARY) ' "$OUT/summary.txt"; then
  exit 1
fi
