// Command target serves the example and test target of package
// examples/target on a loopback address until SIGINT or SIGTERM:
//
//	go run ./examples/cmd/target -addr 127.0.0.1:8080 [-record requests.jsonl] [-book-query 2ms]
//
// It prints its base URL as its one line on stdout. With -record it writes
// every request it received as JSON lines to the file when it stops.
package main
