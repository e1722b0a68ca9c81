// Package progress draws a run's live progress on a terminal: one block
// redrawn in place a few times a second (elapsed time, samples per second,
// error share and 95th percentile of the last interval, and each thread
// group's progress and virtual users), drawn with mpb. Its Meter is the
// report.Sink that measures the intervals on the collector's goroutine at
// constant cost per sample.
//
// On anything but a terminal gojm prints JMeter's summariser lines instead
// (report.Summariser); this package draws nothing there.
//
// It imports report, mpb, golang.org/x/term and hdrhistogram. The thread
// groups come as Groups from a function the caller gives, so it needs
// nothing of the engine.
package progress
