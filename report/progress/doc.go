// Package progress draws a run's live progress on a terminal: one block
// redrawn in place a few times a second, drawn with mpb and fitted to the
// terminal's width (80 columns or fewer; a line is never as wide as the
// terminal, which would wrap it): the elapsed time, the time left when the
// plan's length is known (ETA), the virtual users, the totals and the last
// interval's samples per second, error share and 95th percentile, and a row
// per thread group with a bar of its progress. Lines written to its Writer
// (the summariser's, the stop message of a Ctrl-C) appear above the block
// and stay on screen. Its Meter is the report.Sink that measures the
// intervals on the collector's goroutine at constant cost per sample.
//
// On anything but a terminal gojm prints JMeter's summariser lines instead
// (report.Summariser); this package draws nothing there.
//
// It imports report, mpb and golang.org/x/term. The thread
// groups come as Groups from a function the caller gives, so it needs
// nothing of the engine.
package progress
