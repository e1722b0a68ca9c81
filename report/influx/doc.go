// Package influx runs JMeter's Backend Listener with the InfluxDB client
// (org.apache.jmeter.visualizers.backend.influxdb.InfluxdbBackendListenerClient):
// a report.Sink that aggregates the samples in scope of the listener and
// writes them every backend_influxdb.send_interval seconds (5) in InfluxDB's
// line protocol over HTTP, with JMeter's measurement, tags and fields, so
// that the Grafana dashboards made for JMeter read gojm's runs unchanged.
//
// It imports report and the standard library (net/http) only. The plan's
// listener reaches it as parameters (Param) and a property lookup, so it
// needs neither the engine nor jmx.
package influx
