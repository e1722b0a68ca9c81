// Package segment splits a run into segments that together are the run
// in one process, as k6's execution segments do. A striped count (the
// threads of a group, the arrivals of an arrival-rate group, the rows of a
// CSV file shared by all threads) is dealt out index by index: with n
// equal segments, index v belongs to segment v mod n; with unequal shares
// each index goes to the segment furthest behind its share, so that every
// prefix is split as evenly as the shares allow and a segment's part
// never shrinks as the count grows. Every process computes the same
// dealing from the same sequence, so nothing is exchanged to agree on it.
//
// It imports only the standard library.
package segment
