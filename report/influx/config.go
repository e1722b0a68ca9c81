package influx

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Param is one argument of the Backend Listener, in plan order.
type Param struct {
	Name, Value string
}

// Config is the InfluxDB client's configuration: the Backend Listener's
// arguments and the JMeter properties the client reads.
type Config struct {
	// URL is influxdbUrl: the write endpoint, e.g.
	// http://127.0.0.1:8086/write?db=jmeter (InfluxDB 1.x) or
	// .../api/v2/write?org=o&bucket=b (2.x, with Token).
	URL string
	// Token is influxdbToken: sent as "Authorization: Token …" when set.
	Token string
	// Application is the application tag.
	Application string
	// Measurement names the metrics' measurement ("jmeter").
	Measurement string
	// SummaryOnly sends only the cumulated "all" transaction.
	SummaryOnly bool
	// Samplers selects the labels sent one by one (samplersRegex; a label
	// is sent when the expression matches part of it).
	Samplers *regexp.Regexp
	// Percentiles are sent as pct<N> fields ("percentiles", ";"-separated).
	Percentiles []float32
	// TestTitle and EventTags make the start and end annotations.
	TestTitle string
	EventTags string
	// UserTags are the TAG_<name> arguments, added to every point.
	UserTags []Param

	// SendInterval is backend_influxdb.send_interval (5 s).
	SendInterval time.Duration
	// ConnectTimeout and SocketTimeout are backend_influxdb.connection_timeout
	// (1 s) and backend_influxdb.socket_timeout (3 s).
	ConnectTimeout, SocketTimeout time.Duration
	// Window is backend_metrics_window (100): how many of the latest
	// samples the percentiles, and in fixed mode the mean, min and max, are
	// computed over.
	Window int
	// LargeWindow is backend_metrics_large_window (5000): the bound of the
	// per-interval windows in timed mode.
	LargeWindow int
	// Timed is backend_metrics_window_mode=timed: mean, min and max cover
	// the samples of the interval instead of the latest Window samples.
	Timed bool
}

// defaultArgs are the client's own arguments (JMeter's DEFAULT_ARGS): any
// other argument whose name starts with TAG_ is a user tag.
var defaultArgs = map[string]bool{
	"influxdbMetricsSender": true, "influxdbUrl": true, "application": true, "measurement": true,
	"summaryOnly": true, "samplersRegex": true, "percentiles": true, "testTitle": true, "eventTags": true,
}

// ParseConfig reads the Backend Listener's arguments and the JMeter
// properties (props may be nil) with JMeter's defaults: an argument that is
// absent takes its default, one that is present but empty stays empty.
func ParseConfig(params []Param, props func(name string) (string, bool)) (Config, error) {
	get := func(name, def string) string {
		for _, p := range params {
			if p.Name == name {
				return p.Value
			}
		}
		return def
	}
	var errs []error
	c := Config{
		URL:         strings.TrimSpace(get("influxdbUrl", "")),
		Token:       get("influxdbToken", ""),
		Application: get("application", ""),
		Measurement: get("measurement", "jmeter"),
		SummaryOnly: strings.EqualFold(strings.TrimSpace(get("summaryOnly", "false")), "true"),
		TestTitle:   get("testTitle", "Test"),
		EventTags:   get("eventTags", ""),
	}
	u, err := url.Parse(c.URL)
	if c.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("influxdbUrl %q is not an http(s) URL", c.URL))
	}
	re, err := regexp.Compile(get("samplersRegex", ""))
	if err != nil {
		errs = append(errs, fmt.Errorf("samplersRegex: %w", err))
	}
	c.Samplers = re
	seen := map[string]bool{}
	for _, f := range strings.Split(get("percentiles", ""), ";") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 32)
		if err != nil || !(v > 0 && v <= 100) {
			errs = append(errs, fmt.Errorf("percentiles: %q is not a percentile in (0, 100]", f))
			continue
		}
		key := strconv.FormatFloat(v, 'f', 2, 64) // JMeter keys them as "0.##"
		if !seen[key] {
			seen[key] = true
			c.Percentiles = append(c.Percentiles, float32(v))
		}
	}
	for _, p := range params {
		name := strings.TrimSpace(p.Name)
		if strings.HasPrefix(p.Name, "TAG_") && !defaultArgs[name] && strings.TrimSpace(p.Value) != "" {
			c.UserTags = append(c.UserTags, Param{Name: name[4:], Value: strings.TrimSpace(p.Value)})
		}
	}

	prop := func(name string, def int) int {
		if props == nil {
			return def
		}
		s, ok := props(name)
		if !ok || strings.TrimSpace(s) == "" {
			return def
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("property %s=%q: want a positive whole number", name, s))
			return def
		}
		return n
	}
	c.SendInterval = time.Duration(prop("backend_influxdb.send_interval", 5)) * time.Second
	c.ConnectTimeout = time.Duration(prop("backend_influxdb.connection_timeout", 1000)) * time.Millisecond
	c.SocketTimeout = time.Duration(prop("backend_influxdb.socket_timeout", 3000)) * time.Millisecond
	c.Window = prop("backend_metrics_window", 100)
	c.LargeWindow = prop("backend_metrics_large_window", 5000)
	if props != nil {
		if s, ok := props("backend_metrics_window_mode"); ok {
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "fixed", "":
			case "timed":
				c.Timed = true
			default:
				errs = append(errs, fmt.Errorf("property backend_metrics_window_mode=%q: want fixed or timed", s))
			}
		}
		if s, ok := props("backend_metrics_percentile_estimator"); ok && !strings.EqualFold(strings.TrimSpace(s), "LEGACY") && strings.TrimSpace(s) != "" {
			errs = append(errs, fmt.Errorf("property backend_metrics_percentile_estimator=%q: gojm computes JMeter's default, LEGACY, only", s))
		}
	}
	return c, errors.Join(errs...)
}
