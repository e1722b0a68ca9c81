package dashboard

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gojm/gojm/report"
)

// MaxErrorTypes bounds the distinct error types Errors tracks, in all and
// per sampler; later new types are counted together as OtherErrors, so
// memory stays bounded whatever the messages hold.
const MaxErrorTypes = 1000

// OtherErrors names the error type that gathers types beyond MaxErrorTypes.
const OtherErrors = "Other errors"

// AssertionFailed is the type of an error that has a successful response
// code and no failure message, as JMeter's dashboard names it.
const AssertionFailed = "Assertion failed"

// tcPrefix starts the response message of a Transaction Controller's sample.
const tcPrefix = "Number of samples in transaction"

// errKey identifies an error type without building its name per sample.
type errKey struct {
	code, msg string
	assertion bool // msg is a failure message (or AssertionFailed)
}

func (k errKey) name() string {
	switch {
	case k.assertion:
		return k.msg
	case k.msg == "":
		return k.code
	}
	return k.code + "/" + k.msg
}

// typeCounts counts errors by type, in first-seen order.
type typeCounts struct {
	idx    map[errKey]int
	keys   []errKey
	counts []int64
	other  int64
}

func (t *typeCounts) add(k errKey) {
	i, ok := t.idx[k]
	if !ok {
		if len(t.keys) >= MaxErrorTypes {
			t.other++
			return
		}
		if t.idx == nil {
			t.idx = make(map[errKey]int)
		}
		i = len(t.keys)
		t.idx[k] = i
		t.keys = append(t.keys, k)
		t.counts = append(t.counts, 0)
	}
	t.counts[i]++
}

// sorted returns the error types by decreasing count, ties in first-seen
// order, OtherErrors last.
func (t *typeCounts) sorted() []ErrorCount {
	out := make([]ErrorCount, len(t.keys))
	for i, k := range t.keys {
		out[i] = ErrorCount{Type: k.name(), Count: t.counts[i]}
	}
	slices.SortStableFunc(out, func(a, b ErrorCount) int { return cmp.Compare(b.Count, a.Count) })
	if t.other > 0 {
		out = append(out, ErrorCount{Type: OtherErrors, Count: t.other})
	}
	return out
}

// ErrorCount is the number of errors of one type.
type ErrorCount struct {
	Type  string
	Count int64
}

// SamplerErrors is one row of the top errors by sampler.
type SamplerErrors struct {
	Label   string
	Samples int64
	Errors  int64
	Top     []ErrorCount // at most five, by decreasing count
}

type sampler struct {
	label   string
	samples int64
	errors  int64
	types   typeCounts
}

// Errors is a report.Sink gathering JMeter's dashboard error tables: errors
// by type over the whole run and the five most frequent errors of each
// sampler. The type of a failed sample is "code/message" (just the code
// without a message); a sample that failed with a successful (2xx, 3xx) or
// empty response code is typed by its failure message, or AssertionFailed
// without one. Transaction Controller samples are left out, as from the
// statistics' Total: their failures are their children's. With subResults
// each sub-result counts as a sample of its own, as report.Stats counts it.
type Errors struct {
	subResults bool
	samples    int64
	errors     int64
	types      typeCounts
	samplers   []*sampler
	byLabel    map[string]*sampler
	last       *sampler
}

// NewErrors returns an empty Errors; subResults counts sub-results as
// samples (report.StatsOptions.SubResults).
func NewErrors(subResults bool) *Errors {
	return &Errors{subResults: subResults, byLabel: make(map[string]*sampler)}
}

// Add counts s (and its sub-results when asked).
func (e *Errors) Add(s *report.Sample) {
	e.one(s)
	if e.subResults {
		e.subs(s, 0)
	}
}

// maxDepth bounds the sub-result nesting followed.
const maxDepth = 16

func (e *Errors) subs(s *report.Sample, depth int) {
	if depth >= maxDepth {
		return
	}
	for _, sub := range s.Sub {
		e.one(sub)
		e.subs(sub, depth+1)
	}
}

func (e *Errors) one(s *report.Sample) {
	if s.Transaction || strings.HasPrefix(s.Message, tcPrefix) {
		return
	}
	sm := e.last
	if sm == nil || sm.label != s.Label {
		var ok bool
		if sm, ok = e.byLabel[s.Label]; !ok {
			sm = &sampler{label: s.Label}
			e.byLabel[s.Label] = sm
			e.samplers = append(e.samplers, sm)
		}
		e.last = sm
	}
	e.samples++
	sm.samples++
	if s.Success {
		return
	}
	k := errorKey(s)
	e.errors++
	sm.errors++
	e.types.add(k)
	sm.types.add(k)
}

// errorKey types a failed sample.
func errorKey(s *report.Sample) errKey {
	code := s.Code
	if code == "" && s.FailureMessage != "" || successCode(code) {
		if s.FailureMessage != "" {
			return errKey{msg: s.FailureMessage, assertion: true}
		}
		return errKey{msg: AssertionFailed, assertion: true}
	}
	return errKey{code: code, msg: s.Message}
}

// successCode reports whether code is an HTTP 2xx or 3xx code.
func successCode(code string) bool {
	return len(code) == 3 && (code[0] == '2' || code[0] == '3') &&
		code[1] >= '0' && code[1] <= '9' && code[2] >= '0' && code[2] <= '9'
}

// Close does nothing; the tables stay readable.
func (e *Errors) Close() error { return nil }

// Samples is the number of samples counted (transactions left out).
func (e *Errors) Samples() int64 { return e.samples }

// Count is the number of failed samples counted.
func (e *Errors) Count() int64 { return e.errors }

// ByType returns every error type with its count, most frequent first.
func (e *Errors) ByType() []ErrorCount { return e.types.sorted() }

// TopBySampler returns, for each sampler with errors (most errors first,
// ties in first-seen order), its samples, errors and at most its n most
// frequent error types.
func (e *Errors) TopBySampler(n int) []SamplerErrors {
	var out []SamplerErrors
	for _, sm := range e.samplers {
		if sm.errors == 0 {
			continue
		}
		top := sm.types.sorted()
		if len(top) > n {
			top = top[:n]
		}
		out = append(out, SamplerErrors{Label: sm.label, Samples: sm.samples, Errors: sm.errors, Top: top})
	}
	slices.SortStableFunc(out, func(a, b SamplerErrors) int { return cmp.Compare(b.Errors, a.Errors) })
	return out
}

var _ report.Sink = (*Errors)(nil)
