// Package jmx reads Apache JMeter test plans (.jmx files) into a faithful,
// order-preserving tree of Elements.
//
// A JMX file stores a "hash tree": every test element is followed by a
// <hashTree> sibling that holds its children. Load folds those pairs into
// Element.Children, keeps every property in document order (string, bool,
// int, long, double, float, element, collection, object and map properties,
// including the TestBean <name>/<value> form), drops disabled subtrees, and
// resolves Include Controllers relative to the plan's folder.
//
// The package knows nothing about what elements mean: turning the tree into a
// runnable plan is the engine's job. Problems are reported with the file and
// the element's path in the tree, e.g. "Test Plan › Users › Login".
//
// It imports etree and internal/files (the included plans a plan may
// read).
package jmx
