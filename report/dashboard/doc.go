// Package dashboard writes the HTML dashboard of a run: one index.html
// beside the run's PNG charts, a folder that opens offline in any browser —
// inline CSS, no script, nothing fetched from the network. It shows what
// JMeter's dashboard shows first: the test and report information, the
// APDEX table, the requests summary, the statistics table, the errors by
// type and the top 5 errors by sampler, then every chart.
//
// Every figure comes from the run's one statistics source, a report.Stats
// (the statistics, APDEX and error tables), and the charts from
// report/chart, so a live run and `gojm report` on its JTL produce the same
// page.
//
// It imports report, report/chart, internal/atomicfile and the standard
// library (html/template) only, nothing of the engine, for the same reason.
package dashboard
