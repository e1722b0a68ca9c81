// Package report is the vocabulary of results: the Sample (one JTL row), the
// Sink that consumes samples, the Collector that batches them from many
// virtual users to one goroutine, JTL encoders and decoders, streaming
// statistics (exact per-millisecond counts, so percentiles are exact),
// JMeter's summariser lines, the ab-style report and comparisons.
//
// It imports only the standard library: not the engine, not jmx and not its
// own subpackages, which import it. `gojm report results.jtl` feeds the
// very sinks a live run uses from the JTL decoder instead, and the engine
// can depend on report without a cycle.
package report
