// Command gojm runs Apache JMeter test plans headless and reports on them.
//
//	gojm run PLAN.jmx [-l results.jtl] [-o DIR] [-J name=value]…
//	gojm validate PLAN.jmx
//	gojm report RESULTS.jtl [-o DIR]
//	gojm merge RUN-FOLDER, gojm compare A.jtl B.jtl…, gojm k8s manifest PLAN.jmx
//	gojm completion bash|zsh|fish, gojm version
//	gojm -n -t PLAN.jmx -l results.jtl [-J name=value]…   (JMeter's command line)
//
// help.go holds the table of commands their --help, the suggestions for
// a mistyped command line (suggest.go) and the shell completions
// (completion.go) are made from.
//
// The command only parses flags, handles signals and wires packages
// together; the work is done by jmx, engine and report.
//
// It may import any of gojm's packages, and pflag for the command line.
// Nothing imports it, so code a library needs belongs in that library,
// not here.
package main
