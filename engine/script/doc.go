// Package script runs the Groovy and BeanShell scripts of JMeter plans
// without a JVM: it translates the common subset of both languages to
// JavaScript and runs it on goja, with a runtime that keeps Java's and
// Groovy's rules (int, long, double and BigDecimal arithmetic, Groovy
// truth and ==, Java's String, regex and String.format semantics, Groovy's
// collection methods and closures, java.util.Random's exact sequence) and
// JMeter's bindings (vars, props, log, ctx, prev, SampleResult,
// AssertionResult…) over a Host the engine provides.
//
// The translator is built on a real tokenizer and parser (lexer.go,
// parser.go). It resolves every name and checks every class, static
// member, constructor and method against what the runtime implements
// (catalog.go, read from the runtime itself), and refuses by name, with
// its line, whatever it cannot run: classes that need a JVM, class
// definitions, process access, constructs whose meaning it cannot keep.
// JavaScript scripts run as written. Files (java.io.File, the writers,
// commons-io FileUtils) are reached only through Env.Files, the plan's
// files policy, and JMeter's HTTP Mirror Server through Env.Servers.
//
// A short script over the bindings, strings and arithmetic also compiles
// from its syntax tree straight to Go closures (fast.go): the direct path,
// which Program.Run takes first. It carries its subset's rules exactly and
// runs in well under a microsecond; whatever it does not carry (a Java
// exception, a value of another kind) makes the run start again on the
// translation, its effects held back until the end so that nothing
// happens twice.
//
// Compile translates and compiles each distinct text once; Program.Run
// runs it on the direct path or a pooled runtime, bounded in time.
//
// It imports goja, regexp2 (Java's regex syntax), golang.org/x/text's
// charmaps and gojm's internal/java, internal/cache (each Java behaviour
// and the bounded cache, shared with the engine) and internal/files (the
// policy's denial, to throw Java's exception for it), and none of the
// engine's packages: the engine imports it and gives it everything a
// script may touch through the Host interface.
package script
