package prom

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gojm/gojm/report"
)

// Buckets are the histograms' upper bounds in seconds: 1 ms to 1 min, in
// steps of about 2 and 2.5.
var Buckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// Group is a thread group's virtual users at scrape time.
type Group struct {
	Name                      string
	Active, Started, Finished int
}

// series are one label's metrics, looked up once per label.
type series struct {
	elapsed, latency prometheus.Observer
	samples, errors  prometheus.Counter
	received, sent   prometheus.Counter
}

// Exporter is a report.Sink that records every sample in Prometheus
// metrics and serves them over HTTP at /metrics:
//
//	gojm_sample_duration_seconds{label}       histogram of elapsed times
//	gojm_sample_latency_seconds{label}        histogram of latencies (first byte)
//	gojm_samples_total{label}                 samples
//	gojm_sample_errors_total{label}           failed samples
//	gojm_received_bytes_total{label}, gojm_sent_bytes_total{label}
//	gojm_transaction_duration_seconds{label}  Transaction Controller samples, kept apart
//	gojm_virtual_users{group, state}          active, started, finished
//
// Add runs on the collector's goroutine: one map look-up and lock-free
// atomic updates, no allocation once the label has been seen.
type Exporter struct {
	reg      *prometheus.Registry
	elapsed  *prometheus.HistogramVec
	latency  *prometheus.HistogramVec
	tx       *prometheus.HistogramVec
	samples  *prometheus.CounterVec
	errs     *prometheus.CounterVec
	received *prometheus.CounterVec
	sent     *prometheus.CounterVec
	labels   map[string]*series
	txs      map[string]prometheus.Observer

	ln   net.Listener
	srv  *http.Server
	done chan error
}

// Listen serves the metrics on addr (host:port; ":0" picks a port) until
// Close. groups reports the thread groups at each scrape (may be nil).
func Listen(addr string, groups func() []Group) (*Exporter, error) {
	e := New(groups)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("prometheus endpoint: %w", err)
	}
	e.ln = ln
	mux := http.NewServeMux()
	mux.Handle("/metrics", e.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "gojm: metrics at /metrics")
	})
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	e.done = make(chan error, 1)
	go func() { e.done <- e.srv.Serve(ln) }()
	return e, nil
}

// New returns an exporter that is not served (see Handler).
func New(groups func() []Group) *Exporter {
	hist := func(name, help string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "gojm", Name: name, Help: help, Buckets: Buckets}, []string{"label"})
	}
	counter := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "gojm", Name: name, Help: help}, []string{"label"})
	}
	e := &Exporter{
		reg:      prometheus.NewRegistry(),
		elapsed:  hist("sample_duration_seconds", "Elapsed time of the samples (JMeter's elapsed: start to last byte), by label."),
		latency:  hist("sample_latency_seconds", "Latency of the samples (start to first response byte), by label."),
		tx:       hist("transaction_duration_seconds", "Elapsed time of Transaction Controller samples, by label."),
		samples:  counter("samples_total", "Samples, by label."),
		errs:     counter("sample_errors_total", "Failed samples, by label."),
		received: counter("received_bytes_total", "Bytes received, headers included, by label."),
		sent:     counter("sent_bytes_total", "Bytes sent, by label."),
		labels:   map[string]*series{},
		txs:      map[string]prometheus.Observer{},
	}
	e.reg.MustRegister(e.elapsed, e.latency, e.tx, e.samples, e.errs, e.received, e.sent,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if groups != nil {
		e.reg.MustRegister(&usersCollector{groups: groups})
	}
	return e
}

// Handler serves the metrics in Prometheus' exposition formats.
func (e *Exporter) Handler() http.Handler {
	return promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{})
}

// Addr is the address served, with the port picked for ":0".
func (e *Exporter) Addr() string {
	if e.ln == nil {
		return ""
	}
	return e.ln.Addr().String()
}

// Add records a sample.
func (e *Exporter) Add(s *report.Sample) {
	if s.Transaction {
		o := e.txs[s.Label]
		if o == nil {
			o = e.tx.WithLabelValues(s.Label)
			e.txs[s.Label] = o
		}
		o.Observe(s.Elapsed.Seconds())
		return
	}
	m := e.labels[s.Label]
	if m == nil {
		l := s.Label
		m = &series{
			elapsed: e.elapsed.WithLabelValues(l), latency: e.latency.WithLabelValues(l),
			samples: e.samples.WithLabelValues(l), errors: e.errs.WithLabelValues(l),
			received: e.received.WithLabelValues(l), sent: e.sent.WithLabelValues(l),
		}
		m.errors.Add(0) // present from the first sample, so rate() works
		e.labels[s.Label] = m
	}
	m.elapsed.Observe(s.Elapsed.Seconds())
	m.latency.Observe(s.Latency.Seconds())
	m.samples.Inc()
	if !s.Success {
		m.errors.Inc()
	}
	m.received.Add(float64(s.Bytes))
	m.sent.Add(float64(s.SentBytes))
}

// Close stops serving (a scrape in progress is given a second).
func (e *Exporter) Close() error {
	if e.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := e.srv.Shutdown(ctx)
	if serr := <-e.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("prometheus endpoint: %w", err)
	}
	return nil
}

// usersCollector reports the thread groups' virtual users at scrape time.
type usersCollector struct {
	groups func() []Group
}

var usersDesc = prometheus.NewDesc("gojm_virtual_users", "Virtual users of each thread group: active now, started and finished so far.",
	[]string{"group", "state"}, nil)

func (c *usersCollector) Describe(ch chan<- *prometheus.Desc) { ch <- usersDesc }

func (c *usersCollector) Collect(ch chan<- prometheus.Metric) {
	seen := map[string]int{}
	for _, g := range c.groups() {
		name := g.Name
		// Two groups may share a name; the series must not.
		if n := seen[g.Name]; n > 0 {
			name = fmt.Sprintf("%s (%d)", g.Name, n+1)
		}
		seen[g.Name]++
		ch <- prometheus.MustNewConstMetric(usersDesc, prometheus.GaugeValue, float64(g.Active), name, "active")
		ch <- prometheus.MustNewConstMetric(usersDesc, prometheus.GaugeValue, float64(g.Started), name, "started")
		ch <- prometheus.MustNewConstMetric(usersDesc, prometheus.GaugeValue, float64(g.Finished), name, "finished")
	}
}
