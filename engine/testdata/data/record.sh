#!/usr/bin/env bash
# Re-records what real JMeter 2.13 sends for the plans of this folder that
# the engine's tests compare gojm with: csv_plan.jmx (the CSV-fed plan of
# TestCSVPlanSendsWhatJMeterSends) and missing_files.jmx (data files that
# are not there, TestMissingFiles); writes PLAN.requests.jsonl and
# PLAN.jtl beside this script. JMeter runs from this folder, as __CSVRead
# and __StringFromFile read relative to the working directory in JMeter
# 2.13.
set -euo pipefail
cd "$(dirname "$0")"
for plan in csv_plan missing_files; do
  ../../../scripts/oracle.sh "$plan.jmx" "$plan"
done
