package report

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// isSampleElement reports whether an element name is one of JMeter's
// sample result aliases.
func isSampleElement(n string) bool {
	return n == "sample" || n == "httpSample" || n == "statSample"
}

// xmlDecoder streams an XML JTL: <testResults> holding sample elements,
// each with attributes, <assertionResult>s, nested sample elements and
// other children (response data, headers, URL) of which only the URL is
// kept.
type xmlDecoder struct {
	name string
	d    *xml.Decoder
	vars map[string]int // attribute name → index in Sample.Vars
	nvar int
}

func readXMLJTL(r io.Reader, name string, sink Sink, opt ReadOptions) error {
	x := &xmlDecoder{name: name, d: xml.NewDecoder(r)}
	x.d.Strict = true
	vars := opt.VarNames
	if vars == nil {
		vars = splitVarNames(opt.Properties["sample_variables"])
	}
	if len(vars) > 0 {
		x.vars = make(map[string]int, len(vars))
		for i, v := range vars {
			x.vars[xstreamName(v)] = i
		}
		x.nvar = len(vars)
	}
	depth := 0 // 1 inside <testResults>
	for {
		tok, err := x.d.RawToken()
		if err == io.EOF {
			// A run that was killed leaves no </testResults>; every complete
			// sample has been delivered, so that is not an error.
			return nil
		}
		if err != nil {
			return x.fail("", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if t.Name.Local != "testResults" {
					return x.fail("", fmt.Errorf("root element is <%s>, want <testResults>", t.Name.Local))
				}
				depth = 1
				continue
			}
			if !isSampleElement(t.Name.Local) {
				if err := x.skip(); err != nil {
					return x.fail("", err)
				}
				continue
			}
			s, err := x.sample(t)
			if err != nil {
				return err
			}
			sink.Add(s)
		case xml.EndElement:
			if depth == 1 && t.Name.Local == "testResults" {
				return nil
			}
		}
	}
}

func (x *xmlDecoder) line() int {
	l, _ := x.d.InputPos()
	return l
}

func (x *xmlDecoder) fail(attr string, err error) error {
	var je *JTLError
	if errors.As(err, &je) {
		return err
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &JTLError{File: x.name, Line: x.line(), Column: attr, Err: err}
}

// sample decodes one sample element whose start tag was just read.
func (x *xmlDecoder) sample(start xml.StartElement) (*Sample, error) {
	s := &Sample{Start: time.UnixMilli(0)}
	if x.nvar > 0 {
		s.Vars = make([]string, x.nvar)
	}
	var ts, t, it, lt, ct int64
	for _, a := range start.Attr {
		v := a.Value
		var err error
		switch a.Name.Local {
		case "t":
			t, err = strconv.ParseInt(v, 10, 64)
		case "it":
			it, err = strconv.ParseInt(v, 10, 64)
		case "lt":
			lt, err = strconv.ParseInt(v, 10, 64)
		case "ct":
			ct, err = strconv.ParseInt(v, 10, 64)
		case "ts":
			ts, err = strconv.ParseInt(v, 10, 64)
		case "s":
			s.Success = strings.EqualFold(v, "true")
		case "lb":
			s.Label = v
		case "rc", "rs":
			s.Code = v
		case "rm":
			s.Message = v
		case "tn":
			s.ThreadName = v
		case "dt":
			s.DataType = v
		case "by":
			s.Bytes, err = strconv.ParseInt(v, 10, 64)
		case "sby":
			s.SentBytes, err = strconv.ParseInt(v, 10, 64)
		case "ng":
			s.GrpThreads, err = strconv.Atoi(v)
		case "na":
			s.AllThreads, err = strconv.Atoi(v)
		case "sc", "ec":
			_, err = strconv.Atoi(v)
		case "de", "hn":
		default:
			if i, ok := x.vars[a.Name.Local]; ok {
				s.Vars[i] = v
			}
		}
		if err != nil {
			return nil, x.fail(a.Name.Local, fmt.Errorf("not an integer: %q", v))
		}
	}
	s.Start = time.UnixMilli(ts)
	s.Elapsed = time.Duration(t) * time.Millisecond
	s.Idle = time.Duration(it) * time.Millisecond
	s.Latency = time.Duration(lt) * time.Millisecond
	s.Connect = time.Duration(ct) * time.Millisecond
	s.Transaction = strings.HasPrefix(s.Message, tcPrefix)
	if !hasAttr(start, "s") {
		s.Success = true // JMeter's default for a missing s attribute
	}

	for {
		tok, err := x.d.RawToken()
		if err != nil {
			return nil, x.fail("", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch n := t.Name.Local; {
			case isSampleElement(n):
				sub, err := x.sample(t)
				if err != nil {
					return nil, err
				}
				s.Sub = append(s.Sub, sub)
			case n == "assertionResult":
				a, err := x.assertion()
				if err != nil {
					return nil, err
				}
				if s.FailureMessage == "" && (a.Failure || a.Error) && a.Message != "" {
					s.FailureMessage = a.Message
				}
				s.Assertions = append(s.Assertions, a)
			case n == "java.net.URL":
				u, err := x.text()
				if err != nil {
					return nil, err
				}
				s.URL = u
			default:
				if err := x.skip(); err != nil {
					return nil, x.fail("", err)
				}
			}
		case xml.EndElement:
			return s, nil
		}
	}
}

func hasAttr(e xml.StartElement, name string) bool {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return true
		}
	}
	return false
}

// text returns the character data of the element just opened and consumes
// its end tag.
func (x *xmlDecoder) text() (string, error) {
	var b strings.Builder
	for {
		tok, err := x.d.RawToken()
		if err != nil {
			return "", x.fail("", err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			if err := x.skip(); err != nil {
				return "", x.fail("", err)
			}
		case xml.EndElement:
			return b.String(), nil
		}
	}
}

func (x *xmlDecoder) assertion() (AssertionResult, error) {
	var a AssertionResult
	for {
		tok, err := x.d.RawToken()
		if err != nil {
			return a, x.fail("", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			v, err := x.text()
			if err != nil {
				return a, err
			}
			switch t.Name.Local {
			case "name":
				a.Name = v
			case "failure":
				a.Failure = strings.TrimSpace(v) == "true"
			case "error":
				a.Error = strings.TrimSpace(v) == "true"
			case "failureMessage":
				a.Message = v
			}
		case xml.EndElement:
			return a, nil
		}
	}
}

// skip consumes the rest of the element just opened.
func (x *xmlDecoder) skip() error {
	for depth := 1; depth > 0; {
		tok, err := x.d.RawToken()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}
