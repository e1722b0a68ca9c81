#!/usr/bin/env bash
# Re-records the goldens of the flow plans (*.golden) with real JMeter 2.13:
# each plan runs against a recording server started by the Go test, which
# writes what each thread sent and JMeter's samples.
#
#   engine/testdata/flow/record.sh            # every plan
#   engine/testdata/flow/record.sh loop       # one plan (a TestFlowGoldens subtest name)
#
# genplans.py writes the plans; run it first after changing one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
go test -count=1 -run "TestFlowGoldens/${1:-}" . -record -v | grep -E '^(=== RUN|--- |ok|FAIL|PASS)' || true
