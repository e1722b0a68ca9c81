#!/usr/bin/env bash
# Re-records the golden files of the login → extract → reuse → assert plan
# with real JMeter 2.13: what the example target received (login.requests.jsonl)
# and JMeter's results (login.jtl, CSV with field names).
#
#   engine/testdata/extract/record.sh
#
# genplan.py writes login.jmx; run it first after changing the plan.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
"$root/scripts/oracle.sh" "$here/login.jmx" "$here/login" \
  -Jjmeter.save.saveservice.assertion_results_failure_message=true
