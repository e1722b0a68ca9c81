package report

import (
	"cmp"
	"slices"
)

// The error tables of JMeter's dashboard, kept by Stats: errors by type
// over the Total's samples, and the most frequent error types of each
// label.

// MaxErrorTypes bounds the distinct error types counted, in all and per
// label; later new types are counted together as OtherErrors, so memory
// stays bounded whatever the messages hold.
const MaxErrorTypes = 1000

// OtherErrors names the error type that gathers types beyond MaxErrorTypes.
const OtherErrors = "Other errors"

// AssertionFailed is the type of an error that has a successful response
// code and no failure message, as JMeter's dashboard names it.
const AssertionFailed = "Assertion failed"

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

// errorKey types a failed sample as JMeter's dashboard does: "code/message"
// (the code alone without a message); a sample that failed with a
// successful (2xx, 3xx) or empty response code is typed by its failure
// message, or AssertionFailed without one.
func errorKey(s *Sample) errKey {
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

// typeCounts counts errors by type, in first-seen order.
type typeCounts struct {
	idx    map[errKey]int
	keys   []errKey
	counts []int64
	other  int64
	last   int // index of the type counted last, whose key a run's next error often repeats
}

// add counts n errors of type k.
func (t *typeCounts) add(k errKey, n int64) {
	if t.last < len(t.keys) && t.keys[t.last] == k {
		t.counts[t.last] += n
		return
	}
	i, ok := t.idx[k]
	if !ok {
		if len(t.keys) >= MaxErrorTypes {
			t.other += n
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
	t.counts[i] += n
	t.last = i
}

// merge adds o's counts, o's new types after t's in o's order.
func (t *typeCounts) merge(o *typeCounts) {
	for i, k := range o.keys {
		t.add(k, o.counts[i])
	}
	t.other += o.other
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
	Top     []ErrorCount // at most n, by decreasing count
}

// ErrorsByType returns every error type among the Total's samples with its
// count, most frequent first (JMeter's dashboard's Errors table: its
// percentages are of Total().Errors and of Total().Count).
func (st *Stats) ErrorsByType() []ErrorCount { return st.total.types.sorted() }

// TopErrorsBySampler returns, for each label with errors (most errors
// first, ties in first-seen order), its samples, errors and at most its n
// most frequent error types: JMeter's dashboard's "Top 5 Errors by
// sampler" with n = 5. Transaction Controller labels are left out, as
// their failures are their samplers'.
func (st *Stats) TopErrorsBySampler(n int) []SamplerErrors {
	var out []SamplerErrors
	for _, l := range st.labels {
		if l.Errors == 0 || l.Transaction {
			continue
		}
		top := l.types.sorted()
		if len(top) > n {
			top = top[:n]
		}
		out = append(out, SamplerErrors{Label: l.Label, Samples: l.Count, Errors: l.Errors, Top: top})
	}
	slices.SortStableFunc(out, func(a, b SamplerErrors) int { return cmp.Compare(b.Errors, a.Errors) })
	return out
}
