// Package scripting holds the script elements: JSR223, BeanShell and BSF
// samplers, pre- and post-processors, assertions, timers and listeners,
// and the ${__groovy()} and ${__BeanShell()} functions. Groovy and
// BeanShell run through package script (compiled to Go closures where the
// script is short and simple, translated to JavaScript and run on pooled
// runtimes otherwise); JavaScript runs as written; JEXL runs through package
// function's __jexl3 machinery. A script reaches its virtual user (its
// variables, the run's properties, log and clock) through script.Host,
// implemented here. With NoScriptsProperty set (gojm run --no-scripts)
// every script element and script function is refused at compile time.
//
// It imports element, function, assert (a script assertion's verdict),
// response, engine/script, internal/cache, internal/files (the script
// files a plan may read), internal/java, jmx and report.
package scripting
