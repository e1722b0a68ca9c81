// Package config holds the config elements a controller tells when it
// starts an iteration (element.IterationListener): the CSV Data Set, the
// Counter, the Random Variable and User Parameters, and the tables of
// variables the jmeter-plugins' Set Variables Action and Parameterized
// Controller set. A CSV Data Set's file is shared as JMeter's sharing mode
// says (all threads, the group, the thread, or a key), one reader per run.
//
// It imports element, internal/files (where a plan may read),
// internal/java (charsets, lines, DecimalFormat, Random) and jmx.
package config
