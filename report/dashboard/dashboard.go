package dashboard

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/internal/atomicfile"
	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
)

// FileIndex is the dashboard's page, written beside the charts.
const FileIndex = "index.html"

// Page is what one dashboard shows.
type Page struct {
	Title     string    // plan or run name; may be empty
	Source    string    // where the samples came from: a JTL file, or a run
	Generated time.Time // when the page was made
	// Location is the time zone of the times shown; nil means local time.
	Location *time.Location
	// Stats is the run's one statistics source: the tables, the errors
	// and every figure on the page come from it.
	Stats *report.Stats
	// Summary is the ab-style report, shown as text; may be empty.
	Summary string
	// Series holds the over-time and distribution figures the page draws
	// as interactive charts; nil draws none.
	Series *Series
	// Charts are PNG file names in the dashboard's folder, in the order
	// shown; chart.Charts.WriteAll returns them. Graph Results pictures
	// are shown, the others linked: the interactive charts show the same.
	Charts []string
}

// chartTitles names the charts report/chart writes; other files are
// shown under their file name.
var chartTitles = map[string]string{
	chart.FileGraphResults:             "Graph Results",
	chart.FileResponseTimesOverTime:    "Response Times Over Time",
	chart.FileLatenciesOverTime:        "Latencies Over Time",
	chart.FileConnectTimesOverTime:     "Connect Times Over Time",
	chart.FileThroughputOverTime:       "Hits and Transactions per Second",
	chart.FileResponseCodesPerSecond:   "Response Codes per Second",
	chart.FileActiveThreadsOverTime:    "Active Threads Over Time",
	chart.FileResponseTimePercentiles:  "Response Time Percentiles",
	chart.FileResponseTimeDistribution: "Response Time Distribution",
	chart.FileTimeVsThreads:            "Time vs Threads",
}

//go:embed index.html.tmpl
var pageSource string

// The page's script: uPlot (its own files, unchanged) draws the charts,
// dashboard.js builds them from the page's data and makes the tables
// sortable and filterable.
var (
	//go:embed assets/uPlot.iife.min.js
	uplotJS string
	//go:embed assets/uPlot.min.css
	uplotCSS string
	//go:embed assets/dashboard.js
	dashboardJS string
)

var pageTemplate = template.Must(template.New(FileIndex).Parse(pageSource))

// Write writes the dashboard page into dir (which must exist and hold the
// charts named in p.Charts).
func Write(dir string, p Page) error {
	if p.Stats == nil {
		return fmt.Errorf("dashboard: no statistics")
	}
	v, err := view(p)
	if err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, v); err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, FileIndex), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	return nil
}

// The view types hold the page's figures formatted for the template.
type (
	pageView struct {
		Title, Source, Generated, Start, End, Duration string
		ApdexT, ApdexF                                 string
		Pct                                            [3]string
		Apdex                                          []apdexRow
		OK, KO                                         int64
		OKPct, KOPct                                   string
		OKWidth, KOWidth                               string
		Stats                                          []statsRow
		HasErrors                                      bool
		ErrorTypes                                     []errorRow
		Top                                            []topRow
		Summary                                        string
		Images, Files                                  []chartView
		Data                                           template.JS // the charts' figures (chartJSON)
		Script, ChartScript                            template.JS
		ChartCSS                                       template.CSS
		// Interrupted is "interrupted after 0:13 by SIGINT" for a run a
		// signal stopped (report.Stats.Interrupted), else "".
		Interrupted string
	}
	apdexRow struct {
		Label, Apdex, Class string
		Total               bool
	}
	statsRow struct {
		Label                                      string
		Total                                      bool
		Samples, Errors, ErrorPct                  string
		Mean, Min, Max, StdDev, Median, P1, P2, P3 string
		Throughput, Received, Sent                 string
	}
	errorRow struct {
		Type, Count, PctErrors, PctAll string
	}
	topRow struct {
		Label           string
		Total           bool
		Samples, Errors string
		Cells           [5][2]string // error type, count
	}
	chartView struct {
		ID, Title, File string
	}
)

func view(p Page) (pageView, error) {
	st := p.Stats
	opt := st.Options()
	loc := p.Location
	if loc == nil {
		loc = time.Local
	}
	t := st.Total()
	v := pageView{
		Title:     p.Title,
		Source:    p.Source,
		Generated: p.Generated.In(loc).Format("2006-01-02 15:04:05 MST"),
		ApdexT:    strconv.FormatInt(opt.ApdexSatisfied.Milliseconds(), 10) + " ms",
		ApdexF:    strconv.FormatInt(opt.ApdexTolerated.Milliseconds(), 10) + " ms",
		Summary:   p.Summary,
		Start:     "-", End: "-", Duration: "-",
	}
	if in := st.Interrupted(); in != nil {
		v.Interrupted = in.String()
	}
	for i, q := range opt.Percentiles {
		v.Pct[i] = report.PercentileName(q)
	}
	if t.Count > 0 {
		v.Start = time.UnixMilli(t.First).In(loc).Format("2006-01-02 15:04:05 MST")
		v.End = time.UnixMilli(t.Last).In(loc).Format("2006-01-02 15:04:05 MST")
		v.Duration = (time.Duration(t.Duration()) * time.Millisecond).String()
	}
	rows := append([]*report.LabelStats{t}, st.Labels()...)
	for i, l := range rows {
		a := l.Apdex()
		v.Apdex = append(v.Apdex, apdexRow{Label: l.Label, Apdex: num(a, 3), Class: apdexClass(a), Total: i == 0})
		v.Stats = append(v.Stats, statsRow{
			Label: l.Label, Total: i == 0,
			Samples:    strconv.FormatInt(l.Count, 10),
			Errors:     strconv.FormatInt(l.Errors, 10),
			ErrorPct:   num(l.ErrorPct(), 2) + "%",
			Mean:       num(l.Mean(), 2),
			Min:        intNum(l.Count, l.Min()),
			Max:        intNum(l.Count, l.Max()),
			StdDev:     num(nanIf(l.Count == 0, l.StdDev()), 2),
			Median:     num(l.Median(), 2),
			P1:         num(l.Percentile(opt.Percentiles[0]), 2),
			P2:         num(l.Percentile(opt.Percentiles[1]), 2),
			P3:         num(l.Percentile(opt.Percentiles[2]), 2),
			Throughput: num(l.Throughput(), 2),
			Received:   num(l.ReceivedKBPerSec(), 2),
			Sent:       num(l.SentKBPerSec(), 2),
		})
	}
	v.KO = t.Errors
	v.OK = t.Count - t.Errors
	if t.Count > 0 {
		ok := float64(v.OK) * 100 / float64(t.Count)
		v.OKPct, v.KOPct = num(ok, 2)+"%", num(100-ok, 2)+"%"
		v.OKWidth, v.KOWidth = strconv.FormatFloat(ok, 'f', 3, 64)+"%", strconv.FormatFloat(100-ok, 'f', 3, 64)+"%"
	}
	if t.Errors > 0 {
		v.HasErrors = true
		all := st.ErrorsByType()
		for _, c := range all {
			v.ErrorTypes = append(v.ErrorTypes, errorRow{
				Type:      c.Type,
				Count:     strconv.FormatInt(c.Count, 10),
				PctErrors: num(float64(c.Count)*100/float64(t.Errors), 2) + "%",
				PctAll:    num(float64(c.Count)*100/float64(t.Count), 2) + "%",
			})
		}
		if len(all) > 5 {
			all = all[:5]
		}
		v.Top = append(v.Top, topOf("Total", true, t.Count, t.Errors, all))
		for _, s := range st.TopErrorsBySampler(5) {
			v.Top = append(v.Top, topOf(s.Label, false, s.Samples, s.Errors, s.Top))
		}
	}
	for i, f := range p.Charts {
		title, ok := chartTitles[f]
		if !ok {
			title = f
		}
		c := chartView{ID: "image-" + strconv.Itoa(i+1), Title: title, File: f}
		if strings.HasPrefix(f, "graph-results") {
			v.Images = append(v.Images, c)
		} else {
			v.Files = append(v.Files, c)
		}
	}
	v.Script = template.JS(dashboardJS)
	if p.Series != nil {
		data, err := chartJSON(p.Series, loc)
		if err != nil {
			return v, err
		}
		// encoding/json escapes <, > and &, so the data cannot end its script element.
		v.Data = template.JS(data)
		v.ChartScript = template.JS(uplotJS)
		v.ChartCSS = template.CSS(uplotCSS)
	}
	return v, nil
}

func topOf(label string, total bool, samples, errors int64, top []report.ErrorCount) topRow {
	r := topRow{Label: label, Total: total, Samples: strconv.FormatInt(samples, 10), Errors: strconv.FormatInt(errors, 10)}
	for i, c := range top {
		r.Cells[i] = [2]string{c.Type, strconv.FormatInt(c.Count, 10)}
	}
	return r
}

// apdexClass rates an APDEX score on the usual scale, for colour.
func apdexClass(a float64) string {
	switch {
	case math.IsNaN(a):
		return ""
	case a >= 0.94:
		return "excellent"
	case a >= 0.85:
		return "good"
	case a >= 0.70:
		return "fair"
	case a >= 0.50:
		return "poor"
	}
	return "unacceptable"
}

// num formats v with prec decimals, or "-" when it is not finite.
func num(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

func intNum(n, v int64) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatInt(v, 10)
}

func nanIf(c bool, v float64) float64 {
	if c {
		return math.NaN()
	}
	return v
}
