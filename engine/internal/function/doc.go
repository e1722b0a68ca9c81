// Package function compiles the plan's ${…} fields into templates
// (element.Template) and holds JMeter's functions: properties and
// variables, random values, counters, time and dates, text and encodings,
// files (__StringFromFile, __FileToString, __CSVRead), JEXL (__jexl2,
// __jexl3) and JavaScript (__javaScript), and the JavaScript conditions
// of If Controllers, translated into expr programs where they can be.
//
// A Compiler reads its functions from a Table: this package's and those
// of other element families (scripts' __groovy, the Throughput Shaping
// Timer's __tstFeedback), which the engine adds, so that this package
// imports none of them.
//
// It imports element (the seam), internal/java, internal/cache and
// internal/files (where a plan may read), jmx, goja (JavaScript), expr
// (JEXL and conditions) and golang.org/x/text.
package function
