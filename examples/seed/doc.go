// Package seed is the project gojm started from, a Grails application's
// load tests: test/jmeter/book.jmx reads the book list 100 times,
// test/jmeter/bookCached.jmx the book list from its cache 500 times (one
// user, a Loop Controller, an HTTP Request and Graph Results each, as the
// seed wrote them, with the host and port as properties whose defaults are
// the seed's localhost:8080). compare.sh runs both against the example
// target's book list and prints gojm compare's table and verdict: the
// decision the seed's author made from a table built by hand. It holds no
// Go code but its test, which runs compare.sh.
package seed
