package script

import (
	"sort"
	"strings"
	"time"
)

// testHost is a Host over maps: variables, properties, a log and the
// output, with a fixed clock and seeds.
type testHost struct {
	vars, props       map[string]string
	varObjs, propObjs map[string]Object
	logs              []string
	out               strings.Builder
	slept             time.Duration
	now               time.Time
	seed              int64
	iteration         int
	// sleepErr is what Sleep returns (a stopped test).
	sleepErr error
	// realSleep makes Sleep wait (for the time bound tests).
	block chan struct{}
	// stopped: a script stopped the thread
	stopped bool
	// base is FileServer's base directory, when not /plans/shop
	base string
}

func newTestHost() *testHost {
	return &testHost{vars: map[string]string{}, props: map[string]string{}, varObjs: map[string]Object{},
		propObjs: map[string]Object{}, now: time.UnixMilli(1700000000000), seed: 42, iteration: 1}
}

func (h *testHost) Var(n string) (string, bool)        { v, ok := h.vars[n]; return v, ok }
func (h *testHost) VarObject(n string) (Object, bool)  { o, ok := h.varObjs[n]; return o, ok }
func (h *testHost) PutVar(n, v string)                 { h.vars[n] = v; delete(h.varObjs, n) }
func (h *testHost) PutVarObject(n string, o Object)    { h.varObjs[n] = o; h.vars[n] = o.Text }
func (h *testHost) RemoveVar(n string)                 { delete(h.vars, n); delete(h.varObjs, n) }
func (h *testHost) VarNames() []string                 { return sortedKeys(h.vars) }
func (h *testHost) Prop(n string) (string, bool)       { v, ok := h.props[n]; return v, ok }
func (h *testHost) PropObject(n string) (Object, bool) { o, ok := h.propObjs[n]; return o, ok }
func (h *testHost) PutProp(n, v string)                { h.props[n] = v; delete(h.propObjs, n) }
func (h *testHost) PutPropObject(n string, o Object)   { h.propObjs[n] = o; delete(h.props, n) }
func (h *testHost) RemoveProp(n string)                { delete(h.props, n); delete(h.propObjs, n) }
func (h *testHost) PropNames() []string                { return sortedKeys(h.props) }
func (h *testHost) Iteration() int                     { return h.iteration }
func (h *testHost) ThreadNum() int                     { return 0 }
func (h *testHost) ThreadName() string                 { return "Thread Group 1-1" }
func (h *testHost) GroupName() string                  { return "Thread Group" }
func (h *testHost) GroupThreads() int                  { return 1 }
func (h *testHost) GroupActive() int                   { return 1 }
func (h *testHost) SamplerName() string                { return "Sampler" }
func (h *testHost) SamplerURL() string                 { return "" }
func (h *testHost) Log(level, msg string)              { h.logs = append(h.logs, level+" "+msg) }
func (h *testHost) LogEnabled(level string) bool       { return level != "debug" && level != "trace" }
func (h *testHost) Out(s string, stderr bool)          { h.out.WriteString(s) }
func (h *testHost) BaseDir() string {
	if h.base != "" {
		return h.base
	}
	return "/plans/shop"
}
func (h *testHost) StopThread()    { h.stopped = true }
func (h *testHost) Now() time.Time { return h.now }
func (h *testHost) Seed() int64    { return h.seed }
func (h *testHost) RandomBytes(b []byte) {
	for i := range b {
		b[i] = byte(i * 17)
	}
}
func (h *testHost) Sleep(d time.Duration) error {
	h.slept += d
	if h.block != nil {
		select {
		case <-h.block:
		case <-time.After(d):
		}
	}
	return h.sleepErr
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
