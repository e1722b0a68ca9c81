package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// The state of a Stats as JSON, so that the segments of a split run, each
// counted in its own process, can be merged exactly where they meet
// (ReadState, then Stats.Merge). Histograms are lists of [value, count]
// pairs in increasing order; everything else is a count, a sum or an
// extreme.

const stateVersion = 1

type stateJSON struct {
	Version     int               `json:"version"`
	Options     stateOptions      `json:"options"`
	Labels      []stateLabel      `json:"labels"`
	Total       stateLabel        `json:"total"`
	Connect     [][2]int64        `json:"connectMs"`
	Latency     [][2]int64        `json:"latencyMs"`
	Processing  [][2]int64        `json:"processingMs"`
	Non2xx      int64             `json:"non2xx"`
	Failures    Failures          `json:"failures"`
	MaxThreads  int               `json:"maxThreads"`
	FirstURL    string            `json:"firstURL"`
	OneURL      bool              `json:"oneURL"`
	Interrupted *stateInterrupted `json:"interrupted,omitempty"`
}

type stateOptions struct {
	ApdexSatisfiedMs int64      `json:"apdexSatisfiedMs"`
	ApdexToleratedMs int64      `json:"apdexToleratedMs"`
	Percentiles      [3]float64 `json:"percentiles"`
	SubResults       bool       `json:"subResults"`
}

type stateLabel struct {
	Label       string           `json:"label"`
	Transaction bool             `json:"transaction,omitempty"`
	Count       int64            `json:"count"`
	Errors      int64            `json:"errors"`
	Aborted     int64            `json:"aborted"`
	Bytes       int64            `json:"bytes"`
	SentBytes   int64            `json:"sentBytes"`
	First       int64            `json:"firstMs"`
	Last        int64            `json:"lastMs"`
	Elapsed     [][2]int64       `json:"elapsedMs"`
	Apdex       [3]int64         `json:"apdex"` // judged, satisfied, tolerated
	ErrorTypes  []stateErrorType `json:"errorTypes,omitempty"`
	OtherErrors int64            `json:"otherErrors,omitempty"`
}

type stateErrorType struct {
	Code      string `json:"code,omitempty"`
	Message   string `json:"message,omitempty"`
	Assertion bool   `json:"assertion,omitempty"`
	Count     int64  `json:"count"`
}

type stateInterrupted struct {
	Signal  string `json:"signal"`
	AfterMs int64  `json:"afterMs"`
}

func histState(h *Histogram) [][2]int64 {
	out := [][2]int64{}
	for v, c := range h.All() {
		out = append(out, [2]int64{v, int64(c)})
	}
	return out
}

func histFromState(pairs [][2]int64) (Histogram, error) {
	var h Histogram
	for _, p := range pairs {
		if p[1] < 0 {
			return h, fmt.Errorf("negative count %d at %d ms", p[1], p[0])
		}
		h.AddN(p[0], uint64(p[1]))
	}
	return h, nil
}

func labelState(l *LabelStats) stateLabel {
	s := stateLabel{
		Label: l.Label, Transaction: l.Transaction, Count: l.Count, Errors: l.Errors, Aborted: l.Aborted,
		Bytes: l.Bytes, SentBytes: l.SentBytes, First: l.First, Last: l.Last,
		Elapsed: histState(&l.elapsed), Apdex: [3]int64{l.apdexN, l.apdexS, l.apdexT},
		OtherErrors: l.types.other,
	}
	for i, k := range l.types.keys {
		s.ErrorTypes = append(s.ErrorTypes, stateErrorType{Code: k.code, Message: k.msg, Assertion: k.assertion, Count: l.types.counts[i]})
	}
	return s
}

func labelFromState(s stateLabel) (*LabelStats, error) {
	h, err := histFromState(s.Elapsed)
	if err != nil {
		return nil, fmt.Errorf("label %q: %w", s.Label, err)
	}
	if h.Count() != s.Count {
		return nil, fmt.Errorf("label %q: %d samples but %d elapsed times", s.Label, s.Count, h.Count())
	}
	l := &LabelStats{
		Label: s.Label, Transaction: s.Transaction, Count: s.Count, Errors: s.Errors, Aborted: s.Aborted,
		Bytes: s.Bytes, SentBytes: s.SentBytes, First: s.First, Last: s.Last, elapsed: h,
		apdexN: s.Apdex[0], apdexS: s.Apdex[1], apdexT: s.Apdex[2],
	}
	for _, e := range s.ErrorTypes {
		l.types.add(errKey{code: e.Code, msg: e.Message, assertion: e.Assertion}, e.Count)
	}
	l.types.other += s.OtherErrors
	return l, nil
}

// WriteState writes everything st has counted as JSON, for ReadState in
// another process.
func (st *Stats) WriteState(w io.Writer) error {
	o := st.opt
	s := stateJSON{
		Version: stateVersion,
		Options: stateOptions{ApdexSatisfiedMs: millis(o.ApdexSatisfied), ApdexToleratedMs: millis(o.ApdexTolerated),
			Percentiles: o.Percentiles, SubResults: o.SubResults},
		Labels: []stateLabel{}, Total: labelState(&st.total),
		Connect: histState(&st.connect), Latency: histState(&st.latency), Processing: histState(&st.processing),
		Non2xx: st.non2xx, Failures: st.failures, MaxThreads: st.maxThreads, FirstURL: st.firstURL, OneURL: st.oneURL,
	}
	for _, l := range st.labels {
		s.Labels = append(s.Labels, labelState(l))
	}
	if in := st.interrupted; in != nil {
		s.Interrupted = &stateInterrupted{Signal: in.Signal, AfterMs: in.After.Milliseconds()}
	}
	if err := json.NewEncoder(w).Encode(s); err != nil {
		return fmt.Errorf("statistics state: %w", err)
	}
	return nil
}

// ReadState reads statistics written by WriteState.
func ReadState(r io.Reader) (*Stats, error) {
	var s stateJSON
	if err := json.NewDecoder(r).Decode(&s); err != nil {
		return nil, fmt.Errorf("statistics state: %w", err)
	}
	if s.Version != stateVersion {
		return nil, fmt.Errorf("statistics state: version %d, want %d", s.Version, stateVersion)
	}
	st := NewStats(StatsOptions{
		ApdexSatisfied: time.Duration(s.Options.ApdexSatisfiedMs) * time.Millisecond,
		ApdexTolerated: time.Duration(s.Options.ApdexToleratedMs) * time.Millisecond,
		Percentiles:    s.Options.Percentiles,
		SubResults:     s.Options.SubResults,
	})
	for _, sl := range s.Labels {
		l, err := labelFromState(sl)
		if err != nil {
			return nil, fmt.Errorf("statistics state: %w", err)
		}
		if st.byName[l.Label] != nil {
			return nil, fmt.Errorf("statistics state: label %q twice", l.Label)
		}
		st.byName[l.Label] = l
		st.labels = append(st.labels, l)
	}
	total, err := labelFromState(s.Total)
	if err != nil {
		return nil, fmt.Errorf("statistics state: %w", err)
	}
	st.total = *total
	for _, h := range []struct {
		dst   *Histogram
		pairs [][2]int64
	}{{&st.connect, s.Connect}, {&st.latency, s.Latency}, {&st.processing, s.Processing}} {
		if *h.dst, err = histFromState(h.pairs); err != nil {
			return nil, fmt.Errorf("statistics state: %w", err)
		}
	}
	st.non2xx, st.failures, st.maxThreads, st.firstURL, st.oneURL = s.Non2xx, s.Failures, s.MaxThreads, s.FirstURL, s.OneURL
	if in := s.Interrupted; in != nil {
		st.SetInterrupted(Interruption{Signal: in.Signal, After: time.Duration(in.AfterMs) * time.Millisecond})
	}
	return st, nil
}
