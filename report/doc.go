// Package report is the vocabulary of results: the Sample (one JTL row), the
// Sink that consumes samples, the Collector that batches them from many
// virtual users to one goroutine, JTL encoders and decoders, the run's one
// statistics source (Stats), JMeter's summariser lines, the end report
// (the table per label, the errors, the ab-style block) and comparisons.
//
// One number everywhere: every figure of a run comes from Stats or from a
// sink that counts exactly what it counts. The rule for which samples count
// is StatsOptions.EachRow (a JTL's rows, sub-results included when the JTL
// holds them; a Transaction Controller's sample in its own label's row only,
// never in the Total); times are whole milliseconds, as a JTL holds them, so
// a live run and `gojm report` on its JTL give the same figures; percentiles
// have one definition, JMeter's dashboard's (Histogram.Percentile), exact
// over every sample from per-millisecond counts. The statistics of the
// segments of a split run merge exactly (Stats.Merge, WriteState, ReadState).
//
// It imports only the standard library and internal/java (Java's number
// formats): not the engine, not jmx and not its own subpackages, which
// import it. `gojm report results.jtl` feeds the very sinks a live run uses
// from the JTL decoder instead, and the engine can depend on report without
// a cycle.
package report
