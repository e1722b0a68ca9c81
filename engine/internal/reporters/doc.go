// Package reporters holds JMeter's reporters that act on each sample in
// their scope: Save Responses to a file (ResultSaver), which writes each
// sample's response data, and its sub-samples', to a numbered file.
//
// A plan writes only inside the run's output folder: the file name prefix
// is taken as a path inside it, whatever folder the plan names (an
// absolute path or one climbing out with ".." is brought inside, with a
// warning), and without an output folder nothing is saved.
//
// It imports element, jmx and report, and the standard library.
package reporters
