// Package splitrun is how the segments of a split run meet, with nothing
// between them but files in a folder they share (a ReadWriteMany volume,
// NFS, a local folder): no coordinator, no network between them.
//
// Each segment writes ready-i once its plan is compiled and waits for all
// n, refusing a run whose segments disagree (another plan or properties,
// another gojm, another n); all start at the same instant, the latest
// ready plus a lead. Segment 0 runs setUp and publishes the properties it
// left (setup.json), which the others wait for; before its tearDown it
// waits for the others' main-done-i. A segment that fails or is told to
// stop writes stop, which every other sees within a poll and stops on.
// Running segments touch alive-i every second, so that one killed outright
// is taken for dead after a silence instead of being waited for forever;
// done-i says a segment's results are whole.
//
// Every run's output folder, a split run's segments' and a run in one
// process alike, ends with state.json (its statistics, mergeable exactly)
// and segment.json (which run and segment they are, written last); Parts
// finds one run's folders and checks that segments 0 to n-1 are all
// there, once, of one run.
//
// Every file is written whole (internal/atomicfile). A shared folder
// notifies no one of a change, so the segments poll it.
//
// It imports internal/segment, internal/atomicfile and the standard
// library.
package splitrun
