package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tableRows splits a text table into its rows' cells (two spaces or more
// apart), keyed by the first cell; the title line and a line without
// columns under the table are left out.
func tableRows(t *testing.T, text string) map[string][]string {
	t.Helper()
	sep := regexp.MustCompile(`  +`)
	rows := map[string][]string{}
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if i == 0 || !sep.MatchString(line) {
			continue
		}
		cells := sep.Split(strings.TrimSpace(line), -1)
		rows[cells[0]] = cells[1:]
	}
	return rows
}

// The statistics table of two small files, every figure worked out by
// hand (the arithmetic is in the comments).
func TestLabelTable(t *testing.T) {
	tests := []struct {
		name, file, props string
		opt               StatsOptions
		// columns: Samples Errors Error% Mean Min Max StdDev Median p90
		// p95 p99 Req/s KB/s-in KB/s-out APDEX
		want map[string][]string
	}{{
		// JMeter 2.x: no header, ';' between fields, no sent bytes.
		// Home 100, 300, 1600 ms from t=0, 50, 400 (last end 2000);
		// Login 700 failed at 200; Tx 900 (a transaction, kept out of the
		// Total); "Log;in" 500 at 1500.
		name: "2.x header-less", file: "v2_headerless.csv", props: "jmeter2.properties",
		want: map[string][]string{
			// mean 2000/3; sd √((566.67²+366.67²+933.33²)/3) = 665.0;
			// median at 0.5·4 = 2nd value; p90 at 3.6 ≥ n: max; 3 in 2 s;
			// 3300 B / 2 s / 1024; APDEX (2 satisfied + 0) / 3.
			"Home": {"3", "0", "0.00%", "666.67", "100", "1600", "665.00", "300.00", "1600.00", "1600.00", "1600.00",
				"1.50", "1.61", "0.00", "0.667"},
			// 1 in 0.7 s; 300 B / 0.7 s / 1024 = 0.42; failed: APDEX 0.
			"Login": {"1", "1", "100.00%", "700.00", "700", "700", "0.00", "700.00", "700.00", "700.00", "700.00",
				"1.43", "0.42", "0.00", "0.000"},
			"Tx": {"1", "1", "100.00%", "900.00", "900", "900", "0.00", "900.00", "900.00", "900.00", "900.00",
				"1.11", "1.41", "0.00", "0.000"},
			// 500 ms is still satisfied (≤ T).
			"Log;in": {"1", "0", "0.00%", "500.00", "500", "500", "0.00", "500.00", "500.00", "500.00", "500.00",
				"2.00", "0.20", "0.00", "1.000"},
			// 100, 300, 500, 700, 1600: mean 640; sd √(1352000/5) = 520;
			// median 3rd; 5 in 2 s; 3700 B / 2 s / 1024 = 1.81; APDEX over
			// all 6 samples, Tx included: 3 satisfied / 6.
			"Total": {"5", "1", "20.00%", "640.00", "100", "1600", "520.00", "500.00", "1600.00", "1600.00", "1600.00",
				"2.50", "1.81", "0.00", "0.500"},
		},
	}, {
		// XML with sub-samples, counted as samples of their own: Page 250
		// (2000 B received, 100 sent) with Page-0 40 (150, 50) and Page-1
		// 200 from +50 (1850, 50); Tx (a transaction) holding Check 300
		// failed from +300 (10 B); NoS 10 from +700: the run spans 710 ms.
		name: "XML with sub-samples", file: "subsamples.xml", opt: StatsOptions{SubResults: true},
		want: map[string][]string{
			// 1 in 0.25 s; 2000/0.25/1024 = 7.81; 100/0.25/1024 = 0.39.
			"Page":   {"1", "0", "0.00%", "250.00", "250", "250", "0.00", "250.00", "250.00", "250.00", "250.00", "4.00", "7.81", "0.39", "1.000"},
			"Page-0": {"1", "0", "0.00%", "40.00", "40", "40", "0.00", "40.00", "40.00", "40.00", "40.00", "25.00", "3.66", "1.22", "1.000"},
			"Page-1": {"1", "0", "0.00%", "200.00", "200", "200", "0.00", "200.00", "200.00", "200.00", "200.00", "5.00", "9.03", "0.24", "1.000"},
			"Tx":     {"1", "1", "100.00%", "300.00", "300", "300", "0.00", "300.00", "300.00", "300.00", "300.00", "3.33", "0.03", "0.00", "0.000"},
			"Check":  {"1", "1", "100.00%", "300.00", "300", "300", "0.00", "300.00", "300.00", "300.00", "300.00", "3.33", "0.03", "0.00", "0.000"},
			"NoS":    {"1", "0", "0.00%", "10.00", "10", "10", "0.00", "10.00", "10.00", "10.00", "10.00", "100.00", "0.00", "0.00", "1.000"},
			// 10, 40, 200, 250, 300: mean 160; sd √(66200/5) = 115.07;
			// median 200; 5 / 0.71 s; 4010 B and 200 B over 0.71 s;
			// APDEX 4 satisfied of 6 (Tx and Check failed).
			"Total": {"5", "1", "20.00%", "160.00", "10", "300", "115.07", "200.00", "300.00", "300.00", "300.00",
				"7.04", "5.52", "0.28", "0.667"},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ro ReadOptions
			if tt.props != "" {
				props, err := ReadProperties(filepath.Join("testdata", "jtl", tt.props))
				if err != nil {
					t.Fatal(err)
				}
				ro.Properties = props
			}
			f, err := os.Open(filepath.Join("testdata", "jtl", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st := NewStats(tt.opt)
			if err := ReadJTL(f, tt.file, st, ro); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteLabelTable(&buf, st); err != nil {
				t.Fatal(err)
			}
			rows := tableRows(t, buf.String())
			for label, want := range tt.want {
				if got := rows[label]; !slices.Equal(got, labelTableCells(want)) {
					t.Errorf("%s:\n got %q\nwant %q", label, got, labelTableCells(want))
				}
				// The figures the table does not show.
				l := st.Total()
				if label != "Total" {
					l = st.Label(label)
				}
				if got := []string{strconv.FormatInt(l.Errors, 10), fixed(nanIfEmpty(l.Count, l.StdDev()), 2)}; !slices.Equal(got, []string{want[1], want[6]}) {
					t.Errorf("%s: errors and deviation %q, want %q", label, got, []string{want[1], want[6]})
				}
			}
			if len(rows) != len(tt.want)+1 { // + the header
				t.Errorf("%d rows, want %d:\n%s", len(rows)-1, len(tt.want), buf.String())
			}
			golden(t, "table-"+strings.TrimSuffix(tt.file, filepath.Ext(tt.file))+".txt", buf.Bytes())
		})
	}
}

// labelTableCells picks the label table's columns from the figures of a
// test's want: Samples Errors Error% Mean Min Max StdDev Median p90 p95 p99
// Req/s KB/s-in KB/s-out APDEX.
func labelTableCells(want []string) []string {
	var out []string
	for _, i := range []int{0, 2, 3, 7, 8, 9, 10, 4, 5, 11, 12, 13, 14} {
		out = append(out, want[i])
	}
	return out
}

func TestLabelTableEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteLabelTable(&buf, NewStats(StatsOptions{})); err != nil {
		t.Fatal(err)
	}
	want := []string{"0", "0.00%", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"}
	if got := tableRows(t, buf.String())["Total"]; !slices.Equal(got, want) {
		t.Errorf("empty Total row %q, want %q", got, want)
	}
}

func TestStatsOptionsFromProperties(t *testing.T) {
	tests := []struct {
		name    string
		props   map[string]string
		sat     time.Duration
		tol     time.Duration
		pcts    [3]float64
		wantErr string
	}{
		{name: "defaults", props: nil, sat: 500 * time.Millisecond, tol: 1500 * time.Millisecond, pcts: [3]float64{90, 95, 99}},
		{name: "thresholds", props: map[string]string{PropApdexSatisfied: "200", PropApdexTolerated: " 800 "},
			sat: 200 * time.Millisecond, tol: 800 * time.Millisecond, pcts: [3]float64{90, 95, 99}},
		{name: "one percentile", props: map[string]string{PropPercentile3: "99.9"},
			sat: 500 * time.Millisecond, tol: 1500 * time.Millisecond, pcts: [3]float64{90, 95, 99.9}},
		{name: "not a number", props: map[string]string{PropApdexSatisfied: "fast"}, wantErr: PropApdexSatisfied},
		{name: "satisfied above tolerated", props: map[string]string{PropApdexSatisfied: "2000"}, wantErr: "above the tolerated"},
		{name: "percentile out of range", props: map[string]string{PropPercentile1: "101"}, wantErr: PropPercentile1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt, err := StatsOptionsFromProperties(tt.props)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := NewStats(opt).Options()
			if got.ApdexSatisfied != tt.sat || got.ApdexTolerated != tt.tol || got.Percentiles != tt.pcts {
				t.Errorf("options %+v, want T=%v F=%v percentiles %v", got, tt.sat, tt.tol, tt.pcts)
			}
		})
	}
}
