package chart

import (
	"math"
	"time"

	"gonum.org/v1/plot"
)

// The time axis of the over-time charts is wall-clock time: its values are
// seconds since base, its ticks fall on round times of day in loc and are
// labelled with them.

// clockSteps are the steps between labelled ticks, with the minor ticks
// between two of them.
var clockSteps = []struct {
	step   time.Duration
	minors int
}{
	{time.Millisecond, 1}, {2 * time.Millisecond, 2}, {5 * time.Millisecond, 5},
	{10 * time.Millisecond, 5}, {20 * time.Millisecond, 4}, {50 * time.Millisecond, 5},
	{100 * time.Millisecond, 5}, {200 * time.Millisecond, 4}, {500 * time.Millisecond, 5},
	{time.Second, 5}, {2 * time.Second, 4}, {5 * time.Second, 5}, {10 * time.Second, 5},
	{15 * time.Second, 3}, {30 * time.Second, 6}, {time.Minute, 6}, {2 * time.Minute, 4},
	{5 * time.Minute, 5}, {10 * time.Minute, 5}, {15 * time.Minute, 3}, {30 * time.Minute, 6},
	{time.Hour, 6}, {2 * time.Hour, 4}, {3 * time.Hour, 3}, {6 * time.Hour, 6}, {12 * time.Hour, 6},
	{24 * time.Hour, 4},
}

// clockTicks is a plot.Ticker for an axis of seconds since base.
type clockTicks struct {
	base time.Time
	loc  *time.Location
}

// clockStep is the labelled step for a span of about seven of them.
func clockStep(span time.Duration) (time.Duration, int) {
	for _, s := range clockSteps {
		if span/s.step <= 7 {
			return s.step, s.minors
		}
	}
	days := (span/(24*time.Hour) + 6) / 7
	return days * 24 * time.Hour, 1
}

// clockFormat is the layout of a tick's label at a step.
func clockFormat(step time.Duration) string {
	switch {
	case step < time.Second:
		return "15:04:05.000"
	case step < time.Minute:
		return "15:04:05"
	case step < 24*time.Hour:
		return "15:04"
	}
	return "Jan 2"
}

// Ticks implements plot.Ticker.
func (c clockTicks) Ticks(lo, hi float64) []plot.Tick {
	at := func(sec float64) time.Time { return c.base.Add(time.Duration(math.Round(sec * float64(time.Second)))) }
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: at(lo).In(c.loc).Format("15:04:05.000")}}
	}
	step, minors := clockStep(at(hi).Sub(at(lo)))
	minor := step / time.Duration(minors)
	// Round times are counted in the zone's wall clock: the first minor
	// tick at or after lo whose wall-clock time is a multiple of minor.
	start := at(lo)
	_, offset := start.In(c.loc).Zone()
	wall := start.UnixNano() + int64(offset)*int64(time.Second)
	first := wall - mod(wall, int64(minor))
	if first < wall {
		first += int64(minor)
	}
	layout := clockFormat(step)
	var ticks []plot.Tick
	for w := first; ; w += int64(minor) {
		t := time.Unix(0, w-int64(offset)*int64(time.Second))
		v := t.Sub(c.base).Seconds()
		if v > hi+1e-9 || len(ticks) > 1000 {
			break
		}
		tick := plot.Tick{Value: v}
		if mod(w, int64(step)) == 0 {
			tick.Label = t.In(c.loc).Format(layout)
		}
		ticks = append(ticks, tick)
	}
	return ticks
}

// mod is a modulo that is never negative.
func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// clockAxisLabel names the time axis: its time zone and the date or dates
// it covers.
func clockAxisLabel(from, to time.Time, loc *time.Location) string {
	from, to = from.In(loc), to.In(loc)
	day := from.Format("2006-01-02")
	if d := to.Format("2006-01-02"); d != day {
		day += " to " + d
	}
	return "Time (" + from.Format("MST") + "), " + day
}
