// Package prom serves a run's live metrics for Prometheus to scrape
// (gojm run --prometheus ADDR): a histogram of elapsed times per sample
// label, counters of errors and bytes per label, and the virtual users of
// each thread group, with the official client library.
//
// It imports report and Prometheus's client_golang only; the thread groups
// come as Groups from a function the caller gives, not from the engine.
package prom
