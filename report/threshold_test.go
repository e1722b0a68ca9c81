package report

import (
	"math"
	"strings"
	"testing"
)

func TestParseThreshold(t *testing.T) {
	tests := []struct {
		in                string
		label, metric, op string
		bound             float64
		monotone          bool
	}{
		{"p95<500ms", "", "p95", "<", 500, false},
		{" p95 < 500 ms ", "", "p95", "<", 500, false},
		{"p99.9<=1.5s", "", "p99.9", "<=", 1500, false},
		{"avg<200ms", "", "avg", "<", 200, false},
		{"mean<200", "", "avg", "<", 200, false},
		{"median<1m", "", "med", "<", 60000, false},
		{"max<2s", "", "max", "<", 2000, true},
		{"max>2s", "", "max", ">", 2000, false},
		{"min>=5", "", "min", ">=", 5, true},
		{"error_rate<1%", "", "error_rate", "<", 1, false},
		{"error_rate<0.01", "", "error_rate", "<", 1, false},
		{"errors==0", "", "errors", "==", 0, true},
		{"errors!=0", "", "errors", "!=", 0, false},
		{"count>=1000", "", "count", ">=", 1000, false},
		{"samples<=10", "", "count", "<=", 10, true},
		{"rps>100", "", "rps", ">", 100, false},
		{"rps>100/s", "", "rps", ">", 100, false},
		{"apdex>0.9", "", "apdex", ">", 0.9, false},
		{"Login: p99<1s", "Login", "p99", "<", 1000, false},
		{"GET /api: users:p90<250us", "GET /api: users", "p90", "<", 0.25, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			th, err := ParseThreshold(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if th.Label != tt.label || th.Metric != tt.metric || th.Op != tt.op || math.Abs(th.Bound-tt.bound) > 1e-9 {
				t.Errorf("got label %q metric %q op %q bound %v; want %q %q %q %v",
					th.Label, th.Metric, th.Op, th.Bound, tt.label, tt.metric, tt.op, tt.bound)
			}
			if th.Monotone() != tt.monotone {
				t.Errorf("Monotone() = %v, want %v", th.Monotone(), tt.monotone)
			}
			if th.Text != strings.TrimSpace(tt.in) {
				t.Errorf("Text = %q", th.Text)
			}
		})
	}
}

func TestParseThresholdErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"p95", "no comparison"},
		{"p95 500ms", "no comparison"},
		{"p95=500", "unknown comparison"},
		{"<500", "no metric"},
		{"p0<5", "unknown metric"},
		{"p101<5", "unknown metric"},
		{"latency<5", "unknown metric"},
		{"p95<", "no value"},
		{"p95<fast", "not a time"},
		{"error_rate<5", "at most 1"},
		{"error_rate<x%", "not a number"},
		{"rps>NaN", "not a number"},
		{": p95<5", "empty label"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseThreshold(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// thresholdStats: Total of 10 samples, 10..100 ms, one failure on "Login"
// over 1 s; "Home" has 8, "Login" 2; a transaction sample that the Total
// leaves out.
func thresholdStats() *Stats {
	st := NewStats(StatsOptions{})
	for i := range 10 {
		s := &Sample{Start: t0.Add(ms(int64(i) * 100)), Elapsed: ms(int64(i+1) * 10), Label: "Home", Success: true, Code: "200"}
		if i >= 8 {
			s.Label = "Login"
		}
		if i == 9 {
			s.Success = false
		}
		st.Add(s)
	}
	st.Add(&Sample{Start: t0, Elapsed: ms(5000), Label: "Checkout", Transaction: true, Success: true})
	return st
}

func TestCheckThresholds(t *testing.T) {
	st := thresholdStats()
	tests := []struct {
		in       string
		value    float64
		pass     bool
		measured string
	}{
		{"avg<56ms", 55, true, "55 ms"},
		{"avg<55ms", 55, false, "55 ms"},
		{"p90<=99", 99, true, "99 ms"}, // legacy estimate: 0.9·11 = 9.9 → 90+0.9·10
		{"max<100", 100, false, "100 ms"},
		{"min>=10", 10, true, "10 ms"},
		{"med<60", 55, true, "55 ms"},
		{"error_rate<10%", 10, false, "10.00%"},
		{"error_rate<=0.1", 10, true, "10.00%"},
		{"errors==0", 1, false, "1"},
		{"count==10", 10, true, "10"},
		{"rps>10", 1000.0 / 100 * 10 / 10, false, "10/s"}, // 10 samples from 0 to 1000 ms
		{"apdex>0.8", 9.0 / 11, true, "0.818"},            // the transaction counts here, frustrated
		{"Login: error_rate<50%", 50, false, "50.00%"},
		{"Home: errors==0", 0, true, "0"},
		{"Checkout: max<10s", 5000, true, "5000 ms"},
		{"Search: p95<1s", math.NaN(), false, "no samples"},
	}
	var ts []Threshold
	for _, tt := range tests {
		th, err := ParseThreshold(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	rs := CheckThresholds(st, ts)
	for i, tt := range tests {
		r := rs[i]
		if r.Pass != tt.pass || r.Measured() != tt.measured || !(r.Value == tt.value || math.IsNaN(r.Value) && math.IsNaN(tt.value)) {
			t.Errorf("%s: pass %v value %v measured %q; want %v %v %q", tt.in, r.Pass, r.Value, r.Measured(), tt.pass, tt.value, tt.measured)
		}
	}
	if got, want := Failed(rs), 7; got != want {
		t.Errorf("Failed = %d, want %d", got, want)
	}
}

func TestThresholdLost(t *testing.T) {
	st := thresholdStats()
	tests := []struct {
		in   string
		lost bool
	}{
		{"errors<1", true},
		{"errors<2", false},
		{"errors==0", true},
		{"errors==2", false}, // may still reach 2
		{"count<=9", true},
		{"count<=10", false},
		{"max<100", true},
		{"max<=100", false},
		{"min>10", true},
		{"min==5", false}, // may still come down to 5
		{"min==20", true},
		{"p95<1", false},         // not monotone: decided at the end only
		{"error_rate<1%", false}, // idem
		{"Search: errors<1", false},
		{"Login: errors<1", true},
	}
	for _, tt := range tests {
		th, err := ParseThreshold(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := th.Lost(st); got != tt.lost {
			t.Errorf("%s: Lost = %v, want %v", tt.in, got, tt.lost)
		}
	}
}

func TestThresholdGuard(t *testing.T) {
	var ts []Threshold
	for _, s := range []string{"p95<1ms", "Login: errors<2", "max<1s"} {
		th, err := ParseThreshold(s)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	st := NewStats(StatsOptions{})
	var stopped []string
	g := NewThresholdGuard(st, ts, func(th Threshold) { stopped = append(stopped, th.Text) })
	if g.Watching() != 2 {
		t.Fatalf("Watching = %d, want 2 (p95 cannot be decided early)", g.Watching())
	}
	sinks := Sinks{st, g}
	add := func(label string, ok bool) {
		sinks.Add(&Sample{Start: t0, Elapsed: ms(50), Label: label, Success: ok})
	}
	add("Login", false)
	add("Home", false)
	if len(stopped) != 0 {
		t.Fatalf("stopped after one Login error: %v", stopped)
	}
	add("Login", false)
	add("Login", false)
	if len(stopped) != 1 || stopped[0] != "Login: errors<2" {
		t.Fatalf("stopped = %v, want exactly [Login: errors<2]", stopped)
	}
}

func TestReadThresholds(t *testing.T) {
	in := "# response times\np95<500ms\n\n  Login: p99<1s  \n# errors\nerror_rate<1%\n"
	ts, err := ReadThresholds(strings.NewReader(in), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, th := range ts {
		got = append(got, th.Text)
	}
	if strings.Join(got, "|") != "p95<500ms|Login: p99<1s|error_rate<1%" {
		t.Errorf("got %q", got)
	}
	_, err = ReadThresholds(strings.NewReader("p95<1s\nbogus\np99<x\n"), "t.txt")
	if err == nil || !strings.Contains(err.Error(), "t.txt:2:") || !strings.Contains(err.Error(), "t.txt:3:") {
		t.Errorf("error %v, want both bad lines with their numbers", err)
	}
}

func TestWriteThresholdReport(t *testing.T) {
	st := thresholdStats()
	var ts []Threshold
	for _, s := range []string{"p95<500ms", "Login: error_rate<1%", "Search: p99<1s"} {
		th, _ := ParseThreshold(s)
		ts = append(ts, th)
	}
	var b strings.Builder
	if err := WriteThresholdReport(&b, CheckThresholds(st, ts)); err != nil {
		t.Fatal(err)
	}
	golden(t, "thresholds.txt", []byte(b.String()))
}

func BenchmarkThresholdGuard(b *testing.B) {
	var ts []Threshold
	for _, s := range []string{"errors<1000000", "max<1h", "Login: errors<1000000", "p95<1s"} {
		th, _ := ParseThreshold(s)
		ts = append(ts, th)
	}
	st := NewStats(StatsOptions{})
	g := NewThresholdGuard(st, ts, func(Threshold) {})
	s := &Sample{Start: t0, Elapsed: ms(50), Label: "Login", Success: true}
	st.Add(s)
	b.ReportAllocs()
	for b.Loop() {
		g.Add(s)
	}
}
