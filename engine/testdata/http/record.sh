#!/bin/sh
# Records again what real JMeter 2.13 sends for site.jmx (jmeter213.requests)
# and the samples it writes (jmeter213.samples), against the site served by
# TestHTTPSiteLikeJMeter in engine/http_oracle_test.go. Needs
# ../shared/oracle/jmeter213 next to the repository.
set -e
cd "$(dirname "$0")/../../.."
go test ./engine -run '^TestHTTPSiteLikeJMeter$' -count=1 -v -args -record-jmeter
