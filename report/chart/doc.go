// Package chart draws the pictures of a run as PNG files with gonum/plot:
// JMeter's Graph Results (every sample, running average, median, deviation
// and throughput), the over-time charts of JMeter's dashboard (response
// times, latencies, connect times, throughput, response codes, active
// threads), response-time percentiles and distribution, time against threads,
// and the comparison charts of several runs.
//
// Every figure a chart writes (a legend's mean, a note's percentile, a
// headline's count) is the run's statistics' own (report.Stats): the charts
// count the same rows (report.StatsOptions.EachRow), in the same whole
// milliseconds, with the same percentile definition, and the percentile and
// distribution charts draw the statistics' histograms. A rate over time is
// measured over the part of each time bucket the run covered, so that the
// rates weighted by those parts average to the statistics' throughput. Time
// axes show the wall-clock time, in the local zone unless told otherwise.
//
// The collecting types (GraphResults, Timeline, Charts) are report.Sinks:
// they are fed from one goroutine, take no locks, allocate nothing per sample
// in steady state and keep a bounded amount of memory however long the run —
// points are downsampled into a fixed number of buckets and time series into
// buckets whose width grows as the run does; averages, medians and
// percentiles are computed over every sample.
//
// Every chart is 1200×700 pixels with a title, axis labels with units, a
// legend beside the plot, room above its highest point, and whole numbers
// on the ticks of an axis of counts. Captions gives each chart's text.
//
// It imports report, gonum/plot (with golang.org/x/image's font) and
// internal/atomicfile (a chart is never half written), and nothing of the
// engine, so that a JTL read back draws the same charts as the live run
// that wrote it.
package chart
