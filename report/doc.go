// Package report is the vocabulary of results: the Sample (one JTL row), the
// Sink that consumes samples, the Collector that batches them from many
// virtual users to one goroutine, JTL encoders and decoders, streaming
// statistics (exact per-millisecond counts, so percentiles are exact),
// JMeter's summariser lines, the ab-style report and comparisons.
//
// It uses only the standard library, and never imports
// the engine: `gojm report results.jtl` feeds the very sinks a live run uses
// from the JTL decoder instead.
package report
