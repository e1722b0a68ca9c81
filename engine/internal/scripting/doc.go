// Package scripting holds the script elements: JSR223, BeanShell and BSF
// samplers, pre- and post-processors, assertions, timers and listeners,
// and the ${__groovy()} and ${__BeanShell()} functions. Groovy and
// BeanShell run through package script (compiled to Go closures where the
// script is short and simple, translated to JavaScript and run on pooled
// runtimes otherwise); JavaScript runs as written; JEXL runs through package
// function's __jexl3 machinery. A script reaches its virtual user (its
// variables, the run's properties, log and clock) through script.Host,
// implemented here; files through the plan's files policy, and JMeter's
// HTTP Mirror Server through the run's mirrors, on the loopback only and
// stopped when the run ends. With NoScriptsProperty set (gojm run --no-scripts)
// every script element and script function is refused at compile time.
//
// It imports element, function, assert (a script assertion's verdict),
// response, engine/script, cookies and engine/httpx (the user's cookie
// jar, sampler.getCookieManager()), internal/cache, internal/files (the files a
// plan's scripts may read and write), internal/java, internal/mirror, jmx
// and report.
package scripting
