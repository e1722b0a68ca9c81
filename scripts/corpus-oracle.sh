#!/usr/bin/env bash
# Records what real JMeter 2.13 sends for every plan of corpus/repos, tamed
# (engine/corpus_oracle_test.go says how), into engine/testdata/oracle/corpus,
# inside a network namespace that has only the loopback, so that nothing a
# plan names can be reached. `go test ./engine -run TestCorpusOracle` then
# holds gojm to those recordings. Review the diff of testdata before you
# commit it.
#
#   scripts/corpus-oracle.sh                    # every plan (about 50 minutes)
#   scripts/corpus-oracle.sh -corpus-plan NAME  # the plans whose golden name contains NAME
#
# Needs root (unshare), ../shared/corpus and ../shared/oracle/jmeter213.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
[ "$(id -u)" = 0 ] || { echo "corpus-oracle: needs root for its network namespace" >&2; exit 1; }
go test -c -o /tmp/gojm-engine.test ./engine
cd engine
exec unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' /tmp/gojm-engine.test \
  -test.run '^TestCorpusOracle$' -test.timeout 120m -test.v -record-corpus-jmeter "$@"
