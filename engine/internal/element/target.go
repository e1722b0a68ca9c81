package element

// Targeted is a sampler that can say where it sends, so that gojm
// validate lists the hosts and ports a plan will hit.
type Targeted interface {
	// Target is the scheme, host and port the sampler sends to, its
	// fields evaluated by vu.
	Target(vu *VU) (scheme, host, port string)
}
