// Package testsvc starts real servers from Debian's packages for
// integration tests: InfluxDB 1.x (package influxdb) and Prometheus
// (package prometheus), each on loopback with its data in the test's
// temporary folder, stopped when the test ends. scripts/test-deps.sh
// installs the packages; where a binary is missing the test is skipped
// with a message saying which package to install.
package testsvc
