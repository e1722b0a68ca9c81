package httpsampler

import (
	"net/url"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// This file is jp@gc's Parallel HTTP Requests (jmeter-bzm-plugins,
// com.blazemeter.jmeter.http.ParallelHTTPSampler). The plugin extends
// HTTPSamplerBase and makes no request of its own: its sample is a page it
// writes, an <iframe> for each URL of its table, whose embedded resources
// JMeter's downloadPageResources then fetches, in parallel by default, as
// the sample's sub-results. gojm does the same through the embedded
// resources' code: the URLs are resolved, filtered by the sampler's
// patterns and fetched once each, with the HTTP Request's managers.

// parallelURL is the URL of the plugin's parent sample.
const parallelURL = "http://parallel-urls-list"

var parallelBase, _ = url.Parse(parallelURL)

type parallelSampler struct {
	h    *httpSampler
	urls []*element.Template
}

// BuildParallel builds a Parallel HTTP Requests sampler.
func BuildParallel(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error) {
	h, err := build(c, e, sc)
	if err != nil {
		return nil, err
	}
	p := &parallelSampler{h: h}
	for _, row := range e.Prop("urls").Table(1) {
		if len(row) > 0 {
			p.urls = append(p.urls, c.Template(e, "URL", row[0].Value))
		}
	}
	if h.embedded == nil {
		// The list is downloaded whatever "Retrieve All Embedded
		// Resources" says; that box decides whether each URL's own
		// resources are.
		defaults := sc.Of("ConfigTestElement")
		if h.embedded, err = buildEmbedded(c, e, defaults); err != nil {
			return nil, err
		}
		h.embedded.listOnly = true
	}
	// The plugin's constructor ticks "Parallel downloads"; JMeter's pool
	// size applies when the plan saved none.
	h.embedded.concurrent = e.Bool("HTTPSampler.concurrentDwn", true)
	if strings.TrimSpace(httpField(e, sc.Of("ConfigTestElement"), "HTTPSampler.concurrentPool")) == "" {
		h.embedded.pool = c.Template(e, "HTTPSampler.concurrentPool", "6")
	}
	return p, nil
}

// Sample fetches the URLs as sub-samples of one sample labelled with the
// sampler's name, which takes their time, bytes and verdict.
func (p *parallelSampler) Sample(vu *element.VU, r *element.Result) {
	h := p.h
	st := h.users.Get(vu)
	c := &st.call
	c.begin(h, vu, st, r.Label)
	s := &r.Sample
	s.Start = time.Now()
	s.URL = parallelURL
	s.Success = true
	s.DataType = "text"
	var page strings.Builder
	for _, u := range p.urls {
		page.WriteString("<iframe src='")
		page.WriteString(u.Eval(vu))
		page.WriteString("'></iframe>\n")
	}
	body := []byte(page.String())
	s.Bytes = int64(len(body))
	var err error
	if c.cs, err = lookupCharset(h.encoding.Eval(vu)); err != nil {
		class, msg := describePrepareError(err)
		nonHTTP(s, class, msg)
		return
	}
	c.evalHeaders()
	c.evalSettings()
	if links := htmlLinks(body, parallelBase); len(links) > 0 {
		c.download(&st.main, 0, s, links)
	}
	if s.Elapsed == 0 {
		s.Elapsed = time.Since(s.Start)
	}
	if h.reads {
		r.Body = body
	}
	threadInfo(vu, r.Sub)
	c.end()
}
