package engine

import "strings"

// The checks of this file find, as the plan compiles, what JMeter runs
// leniently and gojm runs the same way, with a warning.

// listenerClass reports whether a test class gojm does not know names a
// listener, by the names JMeter and its plugins give listeners (a
// ResultCollector, a Listener, a Visualizer): one that only reports.
func listenerClass(class string) bool {
	name := class[strings.LastIndexByte(class, '.')+1:]
	for _, suffix := range []string{"ResultCollector", "Listener", "Visualizer"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
