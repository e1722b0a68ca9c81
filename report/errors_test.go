package report

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func sample(label, code, msg string, ok bool, failure string) *Sample {
	return &Sample{Start: t0, Elapsed: 10 * time.Millisecond, Label: label, Code: code, Message: msg,
		Success: ok, FailureMessage: failure}
}

func TestErrorTypes(t *testing.T) {
	tests := []struct {
		name string
		s    *Sample
		want string // "" for no error counted
	}{
		{"http error", sample("a", "404", "Not Found", false, ""), "404/Not Found"},
		{"code without message", sample("a", "503", "", false, ""), "503"},
		{"non-HTTP error", sample("a", "Non HTTP response code: java.net.ConnectException", "Non HTTP response message: Connection refused", false, ""),
			"Non HTTP response code: java.net.ConnectException/Non HTTP response message: Connection refused"},
		{"assertion on a 200", sample("a", "200", "OK", false, "Test failed: text expected to contain /x/"), "Test failed: text expected to contain /x/"},
		{"assertion on a 302 without message", sample("a", "302", "Found", false, ""), AssertionFailed},
		{"no code, failure message", sample("a", "", "", false, "Response was null"), "Response was null"},
		{"4xx with a failure message keeps the code", sample("a", "401", "Unauthorized", false, "Test failed"), "401/Unauthorized"},
		{"success", sample("a", "200", "OK", true, ""), ""},
		{"transaction", sample("T", "", "Number of samples in transaction : 2, number of failing samples : 1", false, ""), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := NewStats(StatsOptions{})
			e.Add(tt.s)
			var got string
			if types := e.ErrorsByType(); len(types) == 1 {
				got = types[0].Type
			} else if len(types) > 1 {
				t.Fatalf("%d types", len(types))
			}
			if got != tt.want {
				t.Errorf("type %q, want %q", got, tt.want)
			}
			wantSamples := int64(1)
			if tt.name == "transaction" {
				wantSamples = 0
			}
			if e.Total().Count != wantSamples {
				t.Errorf("%d samples, want %d", e.Total().Count, wantSamples)
			}
		})
	}
}

func TestTopBySampler(t *testing.T) {
	e := NewStats(StatsOptions{SubResults: true})
	add := func(label, code, msg string, n int) {
		for range n {
			e.Add(sample(label, code, msg, code == "200", ""))
		}
	}
	add("home", "200", "OK", 10)
	add("login", "500", "Internal Server Error", 2)
	add("login", "401", "Unauthorized", 3)
	for i := range 7 { // seven kinds on search, ranked by count
		add("search", fmt.Sprint(500+i), "E", i+1)
	}
	add("login", "200", "OK", 5)
	// A page with a failed sub-result counts it under its own label.
	page := sample("page", "200", "OK", true, "")
	page.Sub = []*Sample{sample("page-0", "404", "Not Found", false, "")}
	e.Add(page)

	if e.Total().Count != 10+2+3+28+5+2 || e.Total().Errors != 2+3+28+1 {
		t.Errorf("samples %d errors %d", e.Total().Count, e.Total().Errors)
	}
	top := e.TopErrorsBySampler(5)
	var labels []string
	for _, s := range top {
		labels = append(labels, s.Label)
	}
	if want := []string{"search", "login", "page-0"}; !slices.Equal(labels, want) {
		t.Fatalf("samplers %q, want %q (most errors first)", labels, want)
	}
	search := top[0]
	wantTop := []ErrorCount{{"506/E", 7}, {"505/E", 6}, {"504/E", 5}, {"503/E", 4}, {"502/E", 3}}
	if search.Samples != 28 || search.Errors != 28 || !slices.Equal(search.Top, wantTop) {
		t.Errorf("search: %+v", search)
	}
	login := top[1]
	if want := []ErrorCount{{"401/Unauthorized", 3}, {"500/Internal Server Error", 2}}; login.Samples != 10 ||
		login.Errors != 5 || !slices.Equal(login.Top, want) {
		t.Errorf("login: %+v", login)
	}
	if all := e.ErrorsByType(); all[0] != (ErrorCount{"506/E", 7}) || len(all) != 10 {
		t.Errorf("by type: %+v", all)
	}
}

// Beyond MaxErrorTypes distinct types, new ones are counted together.
func TestErrorTypesBounded(t *testing.T) {
	e := NewStats(StatsOptions{})
	for i := range MaxErrorTypes + 50 {
		e.Add(sample("a", "500", fmt.Sprintf("request %d failed", i), false, ""))
	}
	types := e.ErrorsByType()
	if len(types) != MaxErrorTypes+1 {
		t.Fatalf("%d types, want %d", len(types), MaxErrorTypes+1)
	}
	if last := types[len(types)-1]; last != (ErrorCount{OtherErrors, 50}) {
		t.Errorf("last type %+v", last)
	}
	if top := e.TopErrorsBySampler(5)[0]; top.Errors != int64(MaxErrorTypes+50) {
		t.Errorf("sampler errors %d", top.Errors)
	}
}

func BenchmarkStatsAddErrors(b *testing.B) {
	samples := []*Sample{
		sample("home", "200", "OK", true, ""),
		sample("search", "200", "OK", true, ""),
		sample("login", "500", "Internal Server Error", false, ""),
		sample("search", "200", "OK", false, "Test failed"),
	}
	e := NewStats(StatsOptions{})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		e.Add(samples[i&3])
		i++
	}
}
