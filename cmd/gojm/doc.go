// Command gojm runs Apache JMeter test plans headless and reports on them.
//
//	gojm run PLAN.jmx [-l results.jtl] [-o DIR] [-J name=value]…
//	gojm validate PLAN.jmx
//	gojm report RESULTS.jtl [-o DIR]
//	gojm version
//	gojm -n -t PLAN.jmx -l results.jtl [-J name=value]…   (JMeter's command line)
//
// The command only parses flags, handles signals and wires packages
// together; the work is done by jmx, engine and report.
package main
