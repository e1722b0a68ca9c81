package jdbc

import (
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// request is what the JDBC Request and the JDBC Pre- and PostProcessors
// share: the pool they name and the statement they run.
type request struct {
	name    string
	srcs    *sources
	dsName  *element.Template
	src     *source // the configuration, when its name is a constant
	kind    *element.Template
	query   *element.Template
	args    *element.Template
	types   *element.Template
	vars    *element.Template
	result  *element.Template
	timeout *element.Template
	maxRows *element.Template
}

func buildRequest(c element.Builder, e *jmx.Element) *request {
	prop := func(name, def string) *element.Template { return element.PropOr(c, e, name, def) }
	r := &request{
		name: e.Name, srcs: sourcesOf(c, e),
		dsName: prop("dataSource", ""), kind: prop("queryType", qSelect), query: prop("query", ""),
		args: prop("queryArguments", ""), types: prop("queryArgumentsTypes", ""),
		vars: prop("variableNames", ""), result: prop("resultVariable", ""),
		timeout: prop("queryTimeout", ""), maxRows: prop("resultSetMaxRows", ""),
	}
	if r.dsName.Const() {
		r.src = r.srcs.lookup(strings.TrimSpace(r.dsName.Raw()))
	}
	if k, ok := c.Static(r.kind); ok {
		switch k {
		case qSelect, qUpdate, qCallable, qPreparedSelect, qPreparedUpdate, qCommit, qRollback, qAutocommitFalse, qAutocommitTrue:
		default:
			c.Plan().Log.Warn("JDBC Request: unexpected query type "+strconv.Quote(k)+": each sample will fail, as in JMeter", "element", e.Path())
		}
	}
	return r
}

// statement evaluates the fields of one execution.
func (r *request) statement(vu *element.VU) *statement {
	st := &statement{
		kind: r.kind.Eval(vu), query: r.query.Eval(vu), args: r.args.Eval(vu), types: r.types.Eval(vu),
		varNames: r.vars.Eval(vu), resultVar: r.result.Eval(vu), maxRows: -1,
	}
	// getIntegerQueryTimeout: seconds, 0 when empty or not a number
	// (empty is the common case, read without Atoi's error)
	if t := r.timeout.Eval(vu); t != "" {
		if n, err := strconv.Atoi(t); err == nil && n > 0 {
			st.timeout = time.Duration(n) * time.Second
		}
	}
	if m := r.maxRows.Eval(vu); m != "" {
		if n, err := strconv.Atoi(m); err == nil {
			st.maxRows = n
		}
	}
	return st
}

// source finds the configuration the element names, or JMeter's exception.
func (r *request) source(vu *element.VU) (*source, error) {
	if r.src != nil && r.src.refused == "" {
		return r.src, nil
	}
	name := r.dsName.Eval(vu)
	if strings.TrimSpace(name) == "" {
		return nil, javaException("java.lang.IllegalArgumentException", "Variable Name must not be null in "+r.name)
	}
	s := r.srcs.lookup(strings.TrimSpace(name))
	if s == nil || s.refused != "" {
		// a configuration refused and skipped is not there either
		return nil, sqlException("No pool found named: '" + name + "', ensure Variable Name matches Variable Name of JDBC Connection Configuration")
	}
	return s, nil
}

// sampler is the JDBC Request (JDBCSampler).
type sampler struct{ *request }

// BuildSampler builds a JDBC Request.
func BuildSampler(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	return &sampler{buildRequest(c, e)}, nil
}

// Sample is JDBCSampler.sample: the connection's wait is the connect
// time, the database's answer the latency; every failure is a sample with
// JMeter's code and message, its message as the response data.
func (s *sampler) Sample(vu *element.VU, r *element.Result) {
	st := s.statement(vu)
	r.DataType = "text"
	r.SamplerData = "[" + st.kind + "] " + st.query + "\n" + st.args + "\n" + st.types
	r.Start = time.Now()
	body, err := s.exec(vu, st, func() { r.Connect = time.Since(r.Start) }, func() { r.Latency = time.Since(r.Start) })
	if err != nil {
		code, msg, data := translate(0, err).sample()
		r.Code, r.Message, r.Success = code, msg, false
		body = []byte(data)
	} else {
		r.Code, r.Message, r.Success = "200", "OK", true
	}
	r.Body = append(r.Body[:0], body...)
	r.Bytes = int64(len(body))
	r.Elapsed = time.Since(r.Start)
}

// exec takes a connection, runs the statement and gives the connection
// back; connected is called once the pool has answered, answered when the
// database has.
func (r *request) exec(vu *element.VU, st *statement, connected, answered func()) ([]byte, error) {
	src, err := r.source(vu)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "java.lang.IllegalArgumentException") {
			connected() // the pool was looked for
		}
		return nil, err
	}
	p := src.poolOf(vu)
	c, err := p.get(vu)
	connected()
	if err != nil {
		return nil, err
	}
	d := p.st.target.dialect
	body, err := st.run(vu, d, c, answered)
	p.put(c, err)
	if err != nil {
		return nil, translate(d, err)
	}
	return body, nil
}

// processor is the JDBC PreProcessor or PostProcessor: the statement runs
// and its response is dropped; a failure is only logged, as JMeter does.
type processor struct{ *request }

// BuildPre builds a JDBC PreProcessor.
func BuildPre(c element.Builder, e *jmx.Element) (element.PreProcessor, error) {
	return &processor{buildRequest(c, e)}, nil
}

// BuildPost builds a JDBC PostProcessor.
func BuildPost(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	return &processor{buildRequest(c, e)}, nil
}

func (p *processor) PreProcess(vu *element.VU) { p.process(vu) }

func (p *processor) PostProcess(vu *element.VU, _ *element.Result) { p.process(vu) }

func (p *processor) process(vu *element.VU) {
	if _, err := p.exec(vu, p.statement(vu), func() {}, func() {}); err != nil {
		vu.Warnf("SQL Problem in %s: %v", p.name, err)
	}
}
