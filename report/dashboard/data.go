package dashboard

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gojm/gojm/report"
)

// The figures the page's script draws, as JSON. Every series of an
// over-time chart has a value per interval (null where it has none);
// rates are per second over the part of the interval the run covers.
type (
	chartData struct {
		Start    int64         `json:"start"`  // first interval's start, ms since the epoch
		Width    int64         `json:"width"`  // interval width, ms
		Offset   int           `json:"offset"` // the page's time zone's offset from UTC at Start, s
		Pct      []float64     `json:"pct"`    // the statistics table's three percentiles
		Apdex    [2]int64      `json:"apdex"`  // satisfied and tolerated thresholds, ms
		Times    []float64     `json:"times"`  // interval starts, s since the epoch
		Cover    []int64       `json:"cover"`  // the part of each interval the run covers, ms: the rates' time
		Total    totalData     `json:"total"`
		Labels   []labelData   `json:"labels"`
		Codes    []namedData   `json:"codes"`
		Groups   []namedData   `json:"groups"`
		RTReq    vsRequestData `json:"rtVsRequest"`
		LatReq   vsRequestData `json:"latVsRequest"`
		PctCurve curveData     `json:"percentiles"`
		Dist     curveData     `json:"distribution"`
		Threads  curveData     `json:"timeVsThreads"`
		Overview [4]int64      `json:"overview"`
	}
	totalData struct {
		Hits     []fig            `json:"hits"`
		OK       []fig            `json:"ok"`
		KO       []fig            `json:"ko"`
		Received []fig            `json:"received"` // bytes per second
		Sent     []fig            `json:"sent"`
		PctOK    map[string][]fig `json:"pctOk"` // min, max, median and the three percentiles of successes
	}
	labelData struct {
		Name        string `json:"name"`
		Transaction bool   `json:"tx"`
		Mean        []fig  `json:"mean"`
		Latency     []fig  `json:"latency"`
		Connect     []fig  `json:"connect"`
		OK          []fig  `json:"ok"` // per second
		KO          []fig  `json:"ko"`
	}
	namedData struct {
		Name   string `json:"name"`
		Values []fig  `json:"values"`
	}
	// vsRequestData is a median time against the global request rate of
	// the intervals, by outcome; x ascending.
	vsRequestData struct {
		X  []fig `json:"x"`
		OK []fig `json:"ok"`
		KO []fig `json:"ko"`
	}
	// curveData is one curve per label over a shared x axis.
	curveData struct {
		Step   float64     `json:"step,omitempty"` // bin width, where x is binned
		X      []fig       `json:"x"`
		Labels []namedData `json:"labels"`
	}
)

// fig is a figure as JSON: at most three decimals, null when not finite.
type fig float64

func (n fig) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, math.Round(f*1000)/1000, 'f', -1, 64), nil
}

func nanNum(ok bool, v float64) fig {
	if !ok {
		return fig(math.NaN())
	}
	return fig(v)
}

// percentileSteps are the x values of the Response Time Percentiles chart.
func percentileSteps() []float64 {
	var ps []float64
	for p := 0; p <= 100; p++ {
		ps = append(ps, float64(p))
	}
	return slices.Insert(ps, 100, 99.5, 99.9) // the tail in more detail
}

// chartJSON is the page's chart data: the series from s, the figures over
// the whole run (percentile curves, distribution) from the statistics.
func chartJSON(s *Series, loc *time.Location) ([]byte, error) {
	opt := s.opt
	st := s.stats
	d := chartData{
		Pct:      opt.Percentiles[:],
		Apdex:    [2]int64{s.sat, s.tol},
		Width:    width(s.step),
		Overview: s.overview,
		Labels:   []labelData{},
		Codes:    []namedData{},
		Groups:   []namedData{},
	}
	lo, hi := max(s.first, 0), s.last+1
	if s.first >= 0 {
		d.Start = (s.lo + s.first) * d.Width
		_, d.Offset = time.UnixMilli(d.Start).In(loc).Zone()
		for i := s.first; i <= s.last; i++ {
			d.Times = append(d.Times, float64((s.lo+i)*d.Width)/1000)
		}
	}
	// Rates are per second over the part of each interval the run covers
	// (the Total's first start to its last end; the last interval runs on
	// to that end), so that the rates weighted by those parts average to
	// the statistics' throughput.
	tot := st.Total()
	cover := make([]int64, hi-lo)
	for k := range cover {
		a := (s.lo + lo + int64(k)) * d.Width
		b := a + d.Width
		if k == len(cover)-1 {
			b = max(b, tot.Last)
		}
		cover[k] = max(min(b, tot.Last)-max(a, tot.First), 0)
		d.Cover = append(d.Cover, cover[k])
	}
	perSec := func(k int, n int64) fig {
		if cover[k] == 0 {
			return fig(math.NaN())
		}
		return fig(float64(n) * 1000 / float64(cover[k]))
	}
	tt := s.total[lo:hi]
	pcts := []float64{0, 100, 50, opt.Percentiles[0], opt.Percentiles[1], opt.Percentiles[2]}
	pctNames := []string{"min", "max", "median", report.PercentileName(pcts[3]), report.PercentileName(pcts[4]), report.PercentileName(pcts[5])}
	d.Total.PctOK = map[string][]fig{}
	for k, t := range tt {
		d.Total.Hits = append(d.Total.Hits, perSec(k, t.ok+t.ko))
		d.Total.OK = append(d.Total.OK, perSec(k, t.ok))
		d.Total.KO = append(d.Total.KO, perSec(k, t.ko))
		d.Total.Received = append(d.Total.Received, perSec(k, t.received))
		d.Total.Sent = append(d.Total.Sent, perSec(k, t.sent))
		for j, v := range t.okElapsed.hist().Percentiles(pcts) {
			d.Total.PctOK[pctNames[j]] = append(d.Total.PctOK[pctNames[j]], fig(v))
		}
	}
	for _, l := range s.labels.all() {
		ld := labelData{Name: l.name}
		if rs := st.Label(l.name); rs != nil {
			ld.Transaction = rs.Transaction
		}
		for k, b := range l.time[lo:hi] {
			ld.Mean = append(ld.Mean, nanNum(b.n > 0, float64(b.elapsed)/float64(b.n)))
			ld.Latency = append(ld.Latency, nanNum(b.n > 0, float64(b.latency)/float64(b.n)))
			ld.Connect = append(ld.Connect, nanNum(b.n > 0, float64(b.connect)/float64(b.n)))
			ld.OK = append(ld.OK, perSec(k, b.n-b.errors))
			ld.KO = append(ld.KO, perSec(k, b.errors))
		}
		d.Labels = append(d.Labels, ld)
	}
	for _, c := range s.codes.all() {
		nd := namedData{Name: c.name}
		for k, b := range c.time[lo:hi] {
			nd.Values = append(nd.Values, perSec(k, b.n))
		}
		d.Codes = append(d.Codes, nd)
	}
	for _, g := range s.groups.all() {
		nd := namedData{Name: g.name}
		for _, b := range g.time[lo:hi] {
			nd.Values = append(nd.Values, nanNum(b.n > 0, float64(b.total)/float64(b.n)))
		}
		d.Groups = append(d.Groups, nd)
	}
	d.RTReq = vsRequest(tt, cover, func(t *totals) (*msCounts, *msCounts) { return &t.okElapsed, &t.koElapsed })
	d.LatReq = vsRequest(tt, cover, func(t *totals) (*msCounts, *msCounts) { return &t.okLatency, &t.koLatency })
	hists := s.labelHistograms()
	d.PctCurve = percentileCurves(hists)
	d.Dist = distribution(hists)
	d.Threads = timeVsThreads(s)
	return json.Marshal(d)
}

// vsRequest is Response Time (or Latency) Vs Request: for each request
// rate seen in an interval (its samples per second over the part of it the
// run covers), the median time of the samples of every interval at that
// rate, by outcome.
func vsRequest(tt []totals, cover []int64, pick func(*totals) (ok, ko *msCounts)) vsRequestData {
	type atRate struct{ ok, ko msCounts }
	byRate := map[int64]*atRate{} // by rate in thousandths per second, as the page shows it
	for i := range tt {
		n := tt[i].ok + tt[i].ko
		if n == 0 || cover[i] == 0 {
			continue
		}
		rate := int64(math.Round(float64(n) * 1e6 / float64(cover[i])))
		r := byRate[rate]
		if r == nil {
			r = &atRate{}
			byRate[rate] = r
		}
		ok, ko := pick(&tt[i])
		r.ok.merge(ok)
		r.ko.merge(ko)
	}
	rates := make([]int64, 0, len(byRate))
	for r := range byRate {
		rates = append(rates, r)
	}
	slices.Sort(rates)
	d := vsRequestData{X: []fig{}, OK: []fig{}, KO: []fig{}}
	for _, rate := range rates {
		r := byRate[rate]
		d.X = append(d.X, fig(float64(rate)/1000))
		d.OK = append(d.OK, fig(r.ok.hist().Percentile(50)))
		d.KO = append(d.KO, fig(r.ko.hist().Percentile(50)))
	}
	return d
}

// labelHist is one label's elapsed times over the whole run, the
// statistics' own histogram (or, for "Other", those of the labels it
// gathers, merged).
type labelHist struct {
	name string
	h    *report.Histogram
}

// labelHistograms returns the elapsed-time histograms of the labels s
// tracks, in its order, from the statistics.
func (s *Series) labelHistograms() []labelHist {
	var out []labelHist
	for _, l := range s.labels.all() {
		if l.name == otherName && s.labels.other != nil && l == s.labels.other {
			var h report.Histogram
			for _, rs := range s.stats.Labels() {
				if _, tracked := s.labels.idx[rs.Label]; !tracked {
					h.Merge(rs.Elapsed())
				}
			}
			out = append(out, labelHist{l.name, &h})
			continue
		}
		if rs := s.stats.Label(l.name); rs != nil {
			out = append(out, labelHist{l.name, rs.Elapsed()})
		}
	}
	return out
}

// percentileCurves is Response Time Percentiles: each label's percentiles
// from 0 to 100, as the statistics table computes them.
func percentileCurves(hists []labelHist) curveData {
	d := curveData{Labels: []namedData{}}
	ps := percentileSteps()
	for _, p := range ps {
		d.X = append(d.X, fig(p))
	}
	for _, l := range hists {
		if l.h.Count() == 0 {
			continue
		}
		nd := namedData{Name: l.name}
		for _, v := range l.h.Percentiles(ps) {
			nd.Values = append(nd.Values, fig(v))
		}
		d.Labels = append(d.Labels, nd)
	}
	return d
}

// niceSteps are the bin widths Response Time Distribution chooses from, ms.
var niceSteps = []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000}

// distribution is Response Time Distribution: each label's samples in bins
// of a round width that gives at most 60 bins (JMeter's 100 ms make a
// single bar of a fast run).
func distribution(hists []labelHist) curveData {
	d := curveData{Labels: []namedData{}, X: []fig{}}
	var top int64
	for _, l := range hists {
		top = max(top, l.h.Max())
	}
	step := niceSteps[len(niceSteps)-1]
	for _, w := range niceSteps {
		if top/w < 60 {
			step = w
			break
		}
	}
	d.Step = float64(step)
	nbins := int(top/step) + 1
	for i := range nbins {
		d.X = append(d.X, fig(float64(int64(i)*step)))
	}
	for _, l := range hists {
		if l.h.Count() == 0 {
			continue
		}
		bins := make([]int64, nbins)
		for v, c := range l.h.All() {
			bins[min(v/step, int64(nbins-1))] += int64(c)
		}
		nd := namedData{Name: l.name, Values: make([]fig, nbins)}
		for i, b := range bins {
			nd.Values[i] = fig(b)
		}
		d.Labels = append(d.Labels, nd)
	}
	return d
}

// timeVsThreads is Time Vs Threads: each label's mean response time by
// the number of active threads when its samples ran.
func timeVsThreads(s *Series) curveData {
	d := curveData{Step: float64(s.threadW), Labels: []namedData{}, X: []fig{}}
	used := make([]bool, threadSlots)
	for _, l := range s.labels.all() {
		for i, b := range l.byThread {
			used[i] = used[i] || b.n > 0
		}
	}
	var slots []int
	for i, u := range used {
		if u {
			slots = append(slots, i)
			d.X = append(d.X, fig(float64(i*s.threadW)))
		}
	}
	for _, l := range s.labels.all() {
		nd := namedData{Name: l.name}
		seen := false
		for _, i := range slots {
			b := l.byThread[i]
			seen = seen || b.n > 0
			nd.Values = append(nd.Values, nanNum(b.n > 0, float64(b.total)/float64(b.n)))
		}
		if seen {
			d.Labels = append(d.Labels, nd)
		}
	}
	return d
}
