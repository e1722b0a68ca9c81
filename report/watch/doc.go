// Package watch samples the server under load: once per interval it reads
// /proc for each watched process (CPU user and system, RSS, threads, open
// file descriptors) and for the machine (load average, available memory),
// streams one server.csv row per process per tick, and sums it all up at the
// end (mean and peak CPU, CPU seconds, peak RSS, requests per CPU-second).
//
// Targets are PIDs or command names; a target's descendants are watched too
// and the tree is re-scanned on every tick, so workers forked later are
// picked up and processes that exit are recorded as gone. CPU used by
// children that lived and died between two ticks is not lost: it reaches
// the parent's cutime/cstime when the parent reaps them, and is counted there
// (once: what was already counted for a reaped child is subtracted).
//
// ReadServerCSV reads a results folder's server.csv back into a Series for
// reports and comparisons, and the chart in chart.go draws it beside the
// run's throughput and mean response time. Sampling needs Linux's /proc;
// elsewhere Start returns ErrNoProc and the run goes on without it.
//
// It imports the standard library, gonum/plot and internal/atomicfile
// only, none of gojm's other packages: it knows processes, not samples, and the caller hands it the
// run's series to draw beside the server's.
package watch
