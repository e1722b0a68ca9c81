// Package dashboard writes the HTML dashboard of a run: one index.html
// beside the run's PNG charts, a folder that opens offline in any browser —
// its styles, scripts and figures inline, nothing fetched from the network
// (its Content-Security-Policy forbids it). It shows what JMeter 5.6's
// dashboard shows: the test and report information, the APDEX table, the
// requests summary, the statistics table, the errors by type and the top 5
// errors by sampler — sortable by any column and filterable — then its
// charts, drawn in the browser with zoom, series toggles, tooltips and a
// log scale for times: Response Times, Response Time Percentiles, Active
// Threads, Bytes Throughput, Latencies and Connect Time over time; Hits,
// Codes, Transactions and Total Transactions per Second; Response Time and
// Latency Vs Request; Response Time Percentiles, Overview and
// Distribution, and Time Vs Threads. Over-time axes are wall-clock time.
//
// Every figure comes from the run's one statistics source, a report.Stats:
// the statistics, APDEX and error tables, and the charts over the whole run
// (percentiles and distribution, from its histograms). What it does not
// hold, the figures per interval of time, Series keeps: it counts the rows
// the statistics count (report.StatsOptions.EachRow) in the same whole
// milliseconds, with the same percentile definition (report.Histogram), and
// its rates are over the part of each interval the run covers, so that they
// average to the statistics' throughput. A live run and `gojm report` on its
// JTL produce the same page.
//
// The charts are drawn by uPlot (assets/uPlot.iife.min.js and
// uPlot.min.css, version 1.6.32 as its authors publish it, MIT licence in
// assets/uPlot.LICENSE), embedded with the page's own script
// (assets/dashboard.js). uPlot was chosen for its weight: about 51 KB,
// against 210 KB for Chart.js without its zoom plugin, and it draws
// thousands of points per series on a canvas; docs/dashboard.md has the
// measurements.
//
// It imports report, report/chart (the names of its PNG files), internal/atomicfile and
// the standard library (html/template, encoding/json) only, nothing of the
// engine, for the same reason.
package dashboard
