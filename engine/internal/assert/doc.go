// Package assert holds JMeter's assertions: Response, Duration, Size,
// MD5Hex, XML (well-formed), JSON (JMeter's and jp@gc's), XPath, XPath2 and
// Compare (each sample against the ones before it in its controller's
// iteration, so also an iteration listener).
// Each judges the samples its scope names and records a Verdict on each:
// success, failure, error and message, as JMeter's AssertionResult keeps
// them (the JTL's failureMessage is the first message any assertion set).
//
// It imports element, response, jmx and report.
package assert
