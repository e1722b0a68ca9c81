#!/usr/bin/env bash
# Re-records what real JMeter 2.13 sends for csv_plan.jmx (the CSV-fed plan
# that TestCSVPlanSendsWhatJMeterSends compares gojm with): writes
# csv_plan.requests.jsonl and csv_plan.jtl beside this script. JMeter runs
# from this folder, as __CSVRead and __StringFromFile read relative to the
# working directory in JMeter 2.13.
set -euo pipefail
cd "$(dirname "$0")"
../../../scripts/oracle.sh csv_plan.jmx csv_plan
