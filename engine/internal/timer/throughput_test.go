package timer

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/internal/java"
)

// The schedule of JMeter's own PreciseThroughputTimerTest.testTimer1: 2
// samples a second, generated 5 seconds at a time, seed 42.
func TestPreciseThroughputScheduleOfJMetersTest(t *testing.T) {
	want := []float64{
		1.3787403472085118, 1.3853924503706834, 1.5435972766632988, 1.8439145670565282, 2.3182678790457665,
		3.327744758972868, 3.416117358799227, 3.6378184001643405, 3.914508893950179, 4.516861323360891,
		5.861089688439262, 5.886892389546892, 6.04883784433166, 6.932834371796743, 7.182454872116432,
		7.937136908931478, 7.9717495544484205, 8.749530906277236, 9.129829359439105, 9.596638914343584,
		10.157091194132905, 11.789599597385642, 12.088437733764593, 12.855201742074335, 12.900124422510304,
		13.567031289116144, 13.7564020338373, 13.762549742953254, 14.088984654178198, 14.870178407479408,
		16.45828248705902,
	}
	p := &poissonArrivals{rate: func() float64 { return 2 }, batch: 1, duration: 5}
	p.rnd = java.NewRandom(42)
	for i, w := range want {
		got, ok := p.next()
		if !ok || math.Abs(got-w) > 1e-9 {
			t.Fatalf("event %d: %v (%v), want %v", i, got, ok, w)
		}
	}
}

// JMeter's verifyExactThroughput: each duration window gets exactly its
// share of events, in order, batches included.
func TestPreciseThroughputExactPerWindow(t *testing.T) {
	tests := []struct {
		seed                         int64
		duration, throughput, period int
	}{
		{6217980321110818258, 60, 5, 60},
		{6812190053835844998, 60, 5, 60},
		{2110188512211996814, 27, 1, 85},
		{4389853422207095555, 21, 26, 79},
	}
	for _, tt := range tests {
		for batch := 1; batch < 3; batch++ {
			rate := float64(tt.throughput*batch) / float64(tt.period)
			p := &poissonArrivals{rate: func() float64 { return rate }, batch: batch, duration: int64(tt.duration)}
			p.rnd = java.NewRandom(tt.seed)
			perWindow := int(math.Ceil(float64(tt.throughput)/float64(tt.period)*float64(tt.duration))) * batch
			prev := 0.0
			for w := 0; w < 100; w++ {
				for i := 0; i < perWindow; i++ {
					next, ok := p.next()
					if !ok || next < prev || next < float64(w*tt.duration) || next >= float64((w+1)*tt.duration) {
						t.Fatalf("seed %d batch %d: event %d of window %d at %v (previous %v)", tt.seed, batch, i, w, next, prev)
					}
					prev = next
				}
			}
		}
	}
}

// BenchmarkShapingTimer is the timer's cost per sample: one turn taken
// from the shared schedule (go test ./engine/internal/timer -run XXX -bench Shaping -benchmem).
func BenchmarkShapingTimer(b *testing.B) {
	c := elementtest.New(nil, "", "")
	t := &shapingTimer{name: "tst"}
	t.state = element.NewShared(c.Plan(), func(*element.VU) *shaping { return &shaping{name: "tst", props: c.Plan().Props} })
	vu := c.VU(1)
	s := t.state.Get(vu)
	s.rows = []shapeRow{{1e9, 1e9, 1 << 30}}
	b.ReportAllocs()
	for b.Loop() {
		t.Delay(vu)
	}
}

func TestLoadProfileProperty(t *testing.T) {
	rows, err := loadProfileRows("const(2, 2s) line(2,4,1m) step(3, 1, 1, 1)")
	if err != nil {
		t.Fatal(err)
	}
	want := []shapeRow{{2, 2, 2}, {2, 4, 60}, {3, 3, 1}, {2, 2, 1}}
	if !slices.Equal(rows, want) {
		t.Errorf("rows %v, want %v", rows, want)
	}
	for _, bad := range []string{"const(2)", "wave(1, 2, 3s)", "line(a, 2, 3)", "step(1, 5, 0, 1s)"} {
		if _, err := loadProfileRows(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// A calcMode JMeter does not know (a label an old JMeter saved in another
// language, a number out of range) is read as JMeter reads it, "this
// thread only", with a warning; JMeter 2.x's English labels are modes.
func TestConstantThroughputCalcMode(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want int
		warn bool
	}{
		{"", cttThisThread, false},
		{"2", cttGroupThreads, false},
		{"all active threads (shared)", cttAllShared, false},
		{"Nur dieser Thread", cttThisThread, true},
		{"7", cttThisThread, true},
	} {
		b := elementtest.New(nil, "", "")
		tm, err := BuildConstantThroughput(b, elementtest.El("ConstantThroughputTimer", "throughput", "60", "calcMode", tc.mode))
		if err != nil {
			t.Fatalf("%q: %v", tc.mode, err)
		}
		if got := tm.(*constantThroughputTimer).mode; got != tc.want {
			t.Errorf("%q: mode %d, want %d", tc.mode, got, tc.want)
		}
		if (len(b.Warnings) == 1) != tc.warn {
			t.Errorf("%q: warnings %q", tc.mode, b.Warnings)
		}
	}
}

// A TestBean timer's long field that is not a whole number is 0, as
// JOrphan's Converter.getLong reads it, with a warning; a negative timeout
// is refused.
func TestTimerLongFields(t *testing.T) {
	for _, tc := range []struct {
		class, field, value string
		warn, refused       bool
	}{
		{"SyncTimer", "timeoutInMs", "500", false, false},
		{"SyncTimer", "timeoutInMs", "", false, false},
		{"SyncTimer", "timeoutInMs", "1.5", true, false},
		{"SyncTimer", "timeoutInMs", "${t}", true, false},
		{"SyncTimer", "timeoutInMs", "-1", false, true},
		{"PreciseThroughputTimer", "randomSeed", "42", false, false},
		{"PreciseThroughputTimer", "randomSeed", "seed", true, false},
	} {
		b := elementtest.New(nil, "", "")
		build := BuildSynchronizing
		if tc.class == "PreciseThroughputTimer" {
			build = BuildPreciseThroughput
		}
		_, err := build(b, elementtest.El(tc.class, tc.field, tc.value))
		if (err != nil) != tc.refused {
			t.Errorf("%s %s=%q: %v", tc.class, tc.field, tc.value, err)
		}
		if (len(b.Warnings) == 1 && strings.Contains(b.Warnings[0], "JMeter reads it as 0")) != tc.warn {
			t.Errorf("%s %s=%q: warnings %q", tc.class, tc.field, tc.value, b.Warnings)
		}
	}
}
