package element

import "sync/atomic"

// Group is one thread group in one run, as its virtual users and their
// elements see it: what the group says of its users, its counts, its stop
// switches and the state its users share (GroupShared). A plan run twice
// gets new ones, so nothing of one run leaks into the next.
type Group struct {
	// Name is the thread group's name; Index its number in thread names
	// ("Users 2-7"), from 1 within its phase.
	Name  string
	Index int
	// OnError is the group's "action to be taken after a sampler error".
	OnError Next
	// SameUser is "same user on each iteration": a user keeps its cookies
	// and connections from one iteration to the next.
	SameUser bool
	// Cookies: a Cookie Manager stands in the group or at plan level, so
	// each user keeps a cookie jar; ClearCookies: it empties the jar at
	// each iteration.
	Cookies, ClearCookies bool
	// UserCookies are the cookies the Cookie Managers in scope define; each
	// user's jar starts with them and gets them back whenever it is emptied.
	UserCookies []UserCookie
	// Threads is the group's thread count as its users see it
	// (Synchronizing Timer, scripts' getNumThreads), set as it starts.
	Threads int
	// Active counts the group's running users (the JTL's grpThreads);
	// Started, Finished and Iterations what their names say.
	Active, Started, Finished, Iterations atomic.Int64

	cells []cell
	stop  func(cause error)
	abort func(cause error)
}

// NewGroup returns a group of a run of p, its facts still to be filled in.
func NewGroup(p *Plan) *Group {
	return &Group{cells: make([]cell, p.ngroupShared), stop: func(error) {}, abort: func(error) {}}
}

// SetStops sets what ends the group gently (no new sample starts) and now
// (running samples are aborted).
func (g *Group) SetStops(stop, abort func(cause error)) { g.stop, g.abort = stop, abort }

// Stop ends the group gently (a Throughput Shaping Timer at the end of
// its schedule).
func (g *Group) Stop(cause error) { g.stop(cause) }

// Abort ends the group now (an Open Model group at the end of its
// schedule).
func (g *Group) Abort(cause error) { g.abort(cause) }

// UserCookie is a cookie a Cookie Manager defines (its "User-Defined
// Cookies"). Its text fields may hold ${} expressions, which JMeter
// evaluates at each request.
type UserCookie struct {
	Name, Value, Domain, Path *Template
	Secure                    bool
	// Expires is in Unix seconds; 0 makes a session cookie.
	Expires int64
	// DomainSpecified makes it a domain cookie, sent to the domain's
	// subdomains too; otherwise it goes to that host only.
	DomainSpecified bool
}
