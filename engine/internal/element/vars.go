package element

import (
	"maps"
	"sort"
	"sync"
	"sync/atomic"
)

// Symbols numbers every variable name the plan mentions, so that templates
// and extractors reach a virtual user's variables by index instead of by a
// string-keyed map. It is written only while compiling and read-only after.
type Symbols struct {
	index map[string]int
	names []string
}

// NewSymbols returns an empty table.
func NewSymbols() *Symbols { return &Symbols{index: map[string]int{}} }

// Intern returns the slot of name, adding it when new. Only the compiler
// calls it: while the plan runs the table is read concurrently.
func (s *Symbols) Intern(name string) int {
	if i, ok := s.index[name]; ok {
		return i
	}
	s.index[name] = len(s.names)
	s.names = append(s.names, name)
	return len(s.names) - 1
}

// Lookup returns the slot of name, if the plan mentions it.
func (s *Symbols) Lookup(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// Vars are one virtual user's variables (JMeter's JMeterVariables). Names
// known when the plan was compiled live in slots; any other name a plan
// invents at run time (an extractor's name_7, a script) goes to a map.
type Vars struct {
	syms  *Symbols
	vals  []string
	set   []bool
	extra map[string]string
}

// NewVars returns a user's variables, none of them set.
func NewVars(syms *Symbols) *Vars {
	return &Vars{syms: syms, vals: make([]string, len(syms.names)), set: make([]bool, len(syms.names))}
}

// Get returns the value of name and whether it is defined.
func (v *Vars) Get(name string) (string, bool) {
	if i, ok := v.syms.index[name]; ok {
		return v.vals[i], v.set[i]
	}
	s, ok := v.extra[name]
	return s, ok
}

// Put sets name to value.
func (v *Vars) Put(name, value string) {
	if i, ok := v.syms.index[name]; ok {
		v.vals[i], v.set[i] = value, true
		return
	}
	if v.extra == nil {
		v.extra = map[string]string{}
	}
	v.extra[name] = value
}

// Remove undefines name.
func (v *Vars) Remove(name string) {
	if i, ok := v.syms.index[name]; ok {
		v.vals[i], v.set[i] = "", false
		return
	}
	delete(v.extra, name)
}

// Slot returns the value of the variable in slot i and whether it is set.
func (v *Vars) Slot(i int) (string, bool) { return v.vals[i], v.set[i] }

// PutSlot sets the variable in slot i.
func (v *Vars) PutSlot(i int, value string) { v.vals[i], v.set[i] = value, true }

// CopyFrom makes v a copy of w (a fresh virtual user starts from the plan's
// user-defined variables).
func (v *Vars) CopyFrom(w *Vars) {
	copy(v.vals, w.vals)
	copy(v.set, w.set)
	v.extra = maps.Clone(w.extra)
}

// Names returns the names of the variables that are set, sorted.
func (v *Vars) Names() []string {
	var out []string
	for i, n := range v.syms.names {
		if v.set[i] {
			out = append(out, n)
		}
	}
	for n := range v.extra {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MergeChanges copies into v the variables src changed from snap (a
// Parallel Controller's branch, which started from snap).
func (v *Vars) MergeChanges(snap, src *Vars) {
	for i := range src.vals {
		if src.set[i] != snap.set[i] || src.vals[i] != snap.vals[i] {
			v.vals[i], v.set[i] = src.vals[i], src.set[i]
		}
	}
	for k, val := range src.extra {
		if old, ok := snap.extra[k]; !ok || old != val {
			v.Put(k, val)
		}
	}
	for k := range snap.extra {
		if _, ok := src.extra[k]; !ok {
			v.Remove(k)
		}
	}
}

// Props are JMeter properties: global to the run and shared by every
// virtual user (-J, -q, -p, __setProperty).
type Props struct {
	mu sync.RWMutex
	m  map[string]string
	// version counts the changes, so that a function reading a property
	// on every sample (${__P(host)}) can keep its value until one comes,
	// without the lock and the map lookup.
	version atomic.Uint64
}

// NewProps returns properties holding a copy of m.
func NewProps(m map[string]string) *Props {
	p := &Props{m: map[string]string{}}
	maps.Copy(p.m, m)
	return p
}

// Get returns the property and whether it is set.
func (p *Props) Get(name string) (string, bool) {
	p.mu.RLock()
	s, ok := p.m[name]
	p.mu.RUnlock()
	return s, ok
}

// Set sets a property.
func (p *Props) Set(name, value string) {
	p.mu.Lock()
	p.m[name] = value
	p.version.Add(1)
	p.mu.Unlock()
}

// Version changes whenever a property is set.
func (p *Props) Version() uint64 { return p.version.Load() }

// Snapshot returns a copy of all properties.
func (p *Props) Snapshot() map[string]string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return maps.Clone(p.m)
}

// Remove deletes a property (props.remove; a property a script replaced
// by an object).
func (p *Props) Remove(name string) {
	p.mu.Lock()
	delete(p.m, name)
	p.version.Add(1)
	p.mu.Unlock()
}
