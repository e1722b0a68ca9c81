package element

import "sync"

// State an element owns, by owner: a virtual user (Local), a run (Shared),
// a thread group in a run (GroupShared), the plan while it compiles
// (Once). Each handle is made once, while the plan compiles, and names a
// slot; reading it is an index and a type check, no map and no lock
// beyond a first-use Once.

// Local is per-user state of type T that an element owns (k6's module
// instance): made for each virtual user on first use, so no element adds
// a field to VU. A Parallel Controller's branch runs as a virtual user of
// its own: it makes its own value, or, with Fork set, derives it from the
// value of the user it branches from (the HTTP client's cookies and
// connections, on a lane of the branch's own).
type Local[T any] struct {
	slot int
	make func(vu *VU) *T
	// Fork, when set, makes a branch's value from its parent user's. It
	// runs under the parent's fork lock, so it must not Get another
	// Local with a Fork for the branch (that Get would wait for the lock
	// forever); take such a value later, on first use.
	Fork func(vu *VU, parent *T) *T
}

// NewLocal hands out a per-user slot of the plan for state made by mk.
func NewLocal[T any](p *Plan, mk func(vu *VU) *T) *Local[T] {
	p.nlocals++
	return &Local[T]{slot: p.nlocals - 1, make: mk}
}

// Get returns vu's value, made on first use.
func (l *Local[T]) Get(vu *VU) *T {
	if l.slot < len(vu.locals) {
		if v, ok := vu.locals[l.slot].(*T); ok {
			return v
		}
	}
	return l.init(vu)
}

// Peek returns vu's value, or nil when vu has not used it yet.
func (l *Local[T]) Peek(vu *VU) *T {
	if l.slot >= len(vu.locals) {
		return nil
	}
	v, _ := vu.locals[l.slot].(*T)
	return v
}

func (l *Local[T]) init(vu *VU) *T {
	for len(vu.locals) <= l.slot {
		// a user made while the plan compiles, before this slot was handed out
		vu.locals = append(vu.locals, nil)
	}
	var v *T
	if p := vu.parent; p != nil && l.Fork != nil {
		// Branches of one user run at once, while the user waits for them:
		// they take the user's value one at a time.
		p.forkMu.Lock()
		v = l.Fork(vu, l.Get(p))
		p.forkMu.Unlock()
	} else {
		v = l.make(vu)
	}
	vu.locals[l.slot] = v
	return v
}

// cell is one slot of shared state, made once by whoever reaches it first.
type cell struct {
	once sync.Once
	v    any
}

// Shared is state of type T that every virtual user of a run shares (the
// count of a shared Throughput Controller, a throughput timer's schedule,
// the CSV files read by alias): made on first use in each run, so that a
// plan run twice starts afresh. T must be safe for concurrent use.
type Shared[T any] struct {
	slot int
	make func(vu *VU) *T
}

// NewShared hands out a per-run slot of the plan for state made by mk,
// which the first user to reach it calls.
func NewShared[T any](p *Plan, mk func(vu *VU) *T) *Shared[T] {
	p.nshared++
	return &Shared[T]{slot: p.nshared - 1, make: mk}
}

// Get returns the run's value.
func (s *Shared[T]) Get(vu *VU) *T {
	var cells []cell
	if vu.Run != nil {
		cells = vu.Run.cells
	}
	return get(cells, s.slot, vu, s.make)
}

// get returns the value of cells[slot], made by mk on first use. A user
// evaluating fields while the plan compiles has no run: its value is made
// for it alone.
func get[T any](cells []cell, slot int, vu *VU, mk func(vu *VU) *T) *T {
	if slot >= len(cells) {
		return mk(vu)
	}
	c := &cells[slot]
	c.once.Do(func() { c.v = mk(vu) })
	return c.v.(*T)
}

// GroupShared is state of type T that the virtual users of one thread
// group share in one run (a group-wide throughput schedule, a dynamic
// group's pool). T must be safe for concurrent use.
type GroupShared[T any] struct {
	slot int
	make func(vu *VU) *T
}

// NewGroupShared hands out a per-group slot of the plan for state made by
// mk, which the first user to reach it calls (nil when the group itself
// reaches it first, through Of).
func NewGroupShared[T any](p *Plan, mk func(vu *VU) *T) *GroupShared[T] {
	p.ngroupShared++
	return &GroupShared[T]{slot: p.ngroupShared - 1, make: mk}
}

// Get returns the value of vu's group.
func (s *GroupShared[T]) Get(vu *VU) *T {
	var cells []cell
	if vu.Group != nil {
		cells = vu.Group.cells
	}
	return get(cells, s.slot, vu, s.make)
}

// Of returns a group's value.
func (s *GroupShared[T]) Of(g *Group) *T { return get(g.cells, s.slot, nil, s.make) }

// Key names a value made once per plan while it compiles (Once).
type Key[T any] struct{ name string }

// NewKey returns a key; name is for reading only.
func NewKey[T any](name string) *Key[T] { return &Key[T]{name: name} }

// Once returns the plan's value for key, made by mk the first time: state
// the elements of one kind share, such as the handle of a Local that every
// HTTP sampler uses.
func Once[T any](p *Plan, key *Key[T], mk func() T) T {
	if p.once == nil {
		p.once = map[any]any{}
	}
	if v, ok := p.once[key]; ok {
		return v.(T)
	}
	v := mk()
	p.once[key] = v
	return v
}

// PerUser is the plan's one Local under key for state that a family's
// elements share per user, such as a protocol's connections: each user's
// value is made by mk the first time the user needs it, and end, when not
// nil, runs when the user ends (to close what it holds).
func PerUser[T any](p *Plan, key *Key[*Local[T]], mk func() *T, end func(*T)) *Local[T] {
	return Once(p, key, func() *Local[T] {
		return NewLocal(p, func(vu *VU) *T {
			v := mk()
			if end != nil {
				vu.AtEnd(func(*VU) { end(v) })
			}
			return v
		})
	})
}
