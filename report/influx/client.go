package influx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/report"
)

// Client is a report.Sink and Ticker that streams a run's metrics to
// InfluxDB as JMeter's InfluxdbBackendListenerClient does: the same
// measurement, tags (application, transaction, statut, responseCode,
// responseMessage, the TAG_ user tags) and fields (count, countError, avg,
// min, max, hit, sb, rb, pct<N>, and the "internal" transaction's minAT,
// maxAT, meanAT, startedT, endedT), the "events" annotations at the start
// and the end, written in InfluxDB's line protocol and POSTed every
// SendInterval.
//
// Add and Tick run on the collector's goroutine; the HTTP requests are made
// on the client's own goroutine, so a slow or absent InfluxDB never holds
// the run back (a send that cannot be queued is dropped with a warning).
// Add does a map look-up and a few counter and ring updates; it allocates
// only for a new label or a new kind of error.
type Client struct {
	cfg     Config
	threads func() (active, started, finished int)
	log     *slog.Logger
	now     func() time.Time

	all     *metric
	labels  map[string]*metric // nil for a label samplersRegex leaves out
	order   []string           // labels sent, in first-seen order
	users   window             // active threads at each sample
	userTag string
	scratch []float64

	nextSend time.Time
	lines    bytes.Buffer

	http  *http.Client
	queue chan []byte
	done  chan struct{}
	// lastErr is the last send's error, for tests and Close.
	mu      sync.Mutex
	lastErr error
	sent    int
}

// New starts a client at start: it queues the "started" annotation and
// sends it with the first metrics at once, as JMeter does when the test
// starts. threads reports the run's virtual users (may be nil); log gets
// warnings (nil discards them).
func New(cfg Config, start time.Time, threads func() (active, started, finished int), log *slog.Logger) *Client {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if threads == nil {
		threads = func() (int, int, int) { return 0, 0, 0 }
	}
	if cfg.SendInterval <= 0 {
		cfg.SendInterval = 5 * time.Second
	}
	if cfg.Window <= 0 {
		cfg.Window = 100
	}
	if cfg.LargeWindow <= 0 {
		cfg.LargeWindow = 5000
	}
	dialer := &net.Dialer{Timeout: max(cfg.ConnectTimeout, 100*time.Millisecond)}
	c := &Client{
		cfg:     cfg,
		threads: threads,
		log:     log,
		now:     time.Now,
		all:     newMetric(&cfg),
		labels:  map[string]*metric{},
		users:   newWindow(cfg.Window),
		http: &http.Client{
			Transport: &http.Transport{DialContext: dialer.DialContext, MaxConnsPerHost: 2},
			Timeout:   max(cfg.ConnectTimeout, 100*time.Millisecond) + max(cfg.SocketTimeout, time.Second),
		},
		queue: make(chan []byte, 16),
		done:  make(chan struct{}),
	}
	var ut strings.Builder
	for _, t := range cfg.UserTags {
		ut.WriteString("," + tagValue(t.Name) + "=" + tagValue(t.Value))
	}
	c.userTag = ut.String()
	go c.sender()
	c.annotation(start, "started")
	c.flush(start)
	c.nextSend = start.Add(cfg.SendInterval)
	return c
}

// Add counts a sample.
func (c *Client) Add(s *report.Sample) {
	c.users.add(float64(s.AllThreads))
	if !c.cfg.SummaryOnly {
		m, seen := c.labels[s.Label]
		if !seen {
			// nil: samplersRegex leaves the label out
			if c.cfg.Samplers == nil || c.cfg.Samplers.MatchString(s.Label) {
				m = newMetric(&c.cfg)
				c.order = append(c.order, s.Label)
			}
			c.labels[s.Label] = m
		}
		if m != nil {
			m.add(s, false)
		}
	}
	c.all.add(s, true)
}

// Tick sends the metrics when a send interval has passed (at a fixed rate
// from the start, as JMeter's scheduler does).
func (c *Client) Tick(now time.Time) {
	if now.Before(c.nextSend) {
		return
	}
	c.flush(now)
	for !now.Before(c.nextSend) {
		c.nextSend = c.nextSend.Add(c.cfg.SendInterval)
	}
}

// Close queues the "ended" annotation and the last metrics, and waits (at
// most the socket timeout plus a second) for them to be sent. Send errors
// are logged, never returned: JMeter does not fail a test its metrics
// could not reach.
func (c *Client) Close() error {
	now := c.now()
	c.annotation(now, "ended")
	c.flush(now)
	close(c.queue)
	select {
	case <-c.done:
	case <-time.After(c.http.Timeout + time.Second):
		c.log.Warn("InfluxDB: the last metrics were not sent in time", "url", c.cfg.URL)
	}
	return nil
}

// Sends returns how many sends were made and the error of the latest
// one, if any.
func (c *Client) Sends() (n int, lastErr error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent, c.lastErr
}

func (c *Client) annotation(t time.Time, what string) {
	b := &c.lines
	b.WriteString("events")
	b.WriteString(",application=" + tagValue(c.cfg.Application))
	b.WriteString(",title=ApacheJMeter")
	b.WriteString(c.userTag)
	if tags := tagValue(c.cfg.EventTags); tags != "" {
		b.WriteString(",tags=" + tags)
	}
	b.WriteString(` text="` + fieldString(c.cfg.TestTitle+" "+what) + `"`)
	c.stamp(t)
}

// stamp ends a line with its timestamp: milliseconds written as
// nanoseconds, as JMeter writes them.
func (c *Client) stamp(t time.Time) {
	c.lines.WriteByte(' ')
	c.lines.WriteString(strconv.FormatInt(t.UnixMilli(), 10))
	c.lines.WriteString("000000\n")
}

// flush writes the interval's points and queues them for sending.
func (c *Client) flush(now time.Time) {
	m := tagValue(c.cfg.Measurement)
	app := ",application=" + tagValue(c.cfg.Application)
	for _, label := range c.order {
		c.labelPoints(now, m, app, label, c.labels[label])
		c.labels[label].reset(c.cfg.Timed)
	}
	c.cumulated(now, m, app)
	c.all.reset(c.cfg.Timed)

	_, started, finished := c.threads()
	b := &c.lines
	b.WriteString(m + app + ",transaction=internal" + c.userTag + " ")
	b.WriteString("minAT=" + javaInt(c.users.min()))
	b.WriteString(",maxAT=" + javaInt(c.users.max()))
	b.WriteString(",meanAT=" + javaInt(c.users.mean()))
	b.WriteString(",startedT=" + strconv.Itoa(started))
	b.WriteString(",endedT=" + strconv.Itoa(finished))
	c.stamp(now)

	out := bytes.Clone(c.lines.Bytes())
	c.lines.Reset()
	select {
	case c.queue <- out:
	default:
		c.log.Warn("InfluxDB is not keeping up: metrics dropped", "url", c.cfg.URL, "points", bytes.Count(out, []byte{'\n'}))
	}
}

// labelPoints writes a label's all, ok and ko points and its errors.
func (c *Client) labelPoints(now time.Time, meas, app, label string, mt *metric) {
	tx := ",transaction=" + tagValue(label)
	for _, st := range []struct {
		statut string
		count  int64
		w      *window
		pct    *window
	}{
		{"all", mt.total(), &mt.all, &mt.pct},
		{"ok", mt.successes, &mt.ok, &mt.ok},
		{"ko", mt.failures, &mt.ko, &mt.ko},
	} {
		if st.count <= 0 {
			continue
		}
		b := &c.lines
		b.WriteString(meas + app + tx + ",statut=" + st.statut + c.userTag + " ")
		b.WriteString("count=" + strconv.FormatInt(st.count, 10))
		c.optional("avg", st.w.mean())
		c.optional("min", st.w.min())
		c.optional("max", st.w.max())
		b.WriteString(",hit=" + strconv.FormatInt(mt.hits, 10))
		b.WriteString(",sb=" + strconv.FormatInt(mt.sent, 10))
		b.WriteString(",rb=" + strconv.FormatInt(mt.received, 10))
		c.percentiles(st.pct)
		c.stamp(now)
	}
	for _, e := range mt.errors {
		b := &c.lines
		b.WriteString(meas + app + tx + ",responseCode=" + tagValue(e.code) + ",responseMessage=" + tagValue(e.message) + c.userTag + " ")
		b.WriteString("count=" + strconv.FormatInt(e.n, 10))
		c.stamp(now)
	}
}

// cumulated writes the "all" transaction: every sample, its mean, min and
// max over successful samples only (as JMeter computes them).
func (c *Client) cumulated(now time.Time, meas, app string) {
	mt := c.all
	if mt.total() <= 0 {
		return
	}
	b := &c.lines
	b.WriteString(meas + app + ",transaction=all,statut=all" + c.userTag + " ")
	b.WriteString("count=" + strconv.FormatInt(mt.total(), 10))
	b.WriteString(",countError=" + strconv.FormatInt(mt.failures, 10))
	c.optional("avg", mt.ok.mean())
	c.optional("min", mt.ok.min())
	c.optional("max", mt.ok.max())
	b.WriteString(",hit=" + strconv.FormatInt(mt.hits, 10))
	b.WriteString(",sb=" + strconv.FormatInt(mt.sent, 10))
	b.WriteString(",rb=" + strconv.FormatInt(mt.received, 10))
	c.percentiles(&mt.pct)
	c.stamp(now)
}

func (c *Client) optional(name string, v float64) {
	if !math.IsNaN(v) {
		c.lines.WriteString("," + name + "=" + java.DoubleString(v))
	}
}

func (c *Client) percentiles(w *window) {
	for _, p := range c.cfg.Percentiles {
		c.lines.WriteString(",pct" + java.FloatString(p) + "=" + java.DoubleString(w.percentile(float64(p), &c.scratch)))
	}
}

func (c *Client) sender() {
	defer close(c.done)
	for body := range c.queue {
		err := c.post(body)
		c.mu.Lock()
		c.lastErr = err
		c.sent++
		c.mu.Unlock()
		if err != nil {
			c.log.Warn("InfluxDB: could not send metrics", "url", c.cfg.URL, "err", err)
		}
	}
}

func (c *Client) post(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.http.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain; charset=UTF-8")
	req.Header.Set("User-Agent", "gojm")
	if strings.TrimSpace(c.cfg.Token) != "" {
		req.Header.Set("Authorization", "Token "+c.cfg.Token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode < 200 || resp.StatusCode > 399 {
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// tagValue escapes a measurement, tag key or tag value as JMeter does:
// trimmed, with spaces, commas and equal signs backslashed and line ends
// written as \n.
func tagValue(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, " ,=\n") {
		return s
	}
	r := strings.NewReplacer(" ", `\ `, ",", `\,`, "=", `\=`, "\n", `\n`)
	return r.Replace(s)
}

// fieldString escapes a string field's value: trimmed, quotes backslashed.
func fieldString(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), `"`, `\"`)
}

// javaInt is Java's (int) cast of a double: truncation, NaN as 0.
func javaInt(v float64) string {
	if math.IsNaN(v) {
		return "0"
	}
	return strconv.FormatInt(int64(v), 10)
}
