// Package chart draws the pictures of a run as PNG files with gonum/plot:
// JMeter's Graph Results (every sample, running average, median, deviation
// and throughput), the over-time charts of JMeter's dashboard (response
// times, latencies, connect times, throughput, response codes, active
// threads), response-time percentiles and distribution, time against threads,
// and the comparison charts of several runs.
//
// The collecting types (GraphResults, Timeline, Charts) are report.Sinks:
// they are fed from one goroutine, take no locks, allocate nothing per sample
// in steady state and keep a bounded amount of memory however long the run —
// points are downsampled into a fixed number of buckets and time series into
// buckets whose width doubles as the run grows; averages, medians and
// percentiles are computed over every sample.
//
// Every chart is 1200×700 pixels with a title, axis labels with units and a
// legend beside the plot.
//
// It imports report, gonum/plot (with golang.org/x/image's font),
// hdrhistogram and internal/atomicfile (a chart is never half written),
// and nothing of the engine, so that a JTL read back draws
// the same charts as the live run that wrote it.
package chart
