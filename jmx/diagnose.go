package jmx

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"unicode/utf8"

	"golang.org/x/text/encoding/ianaindex"
)

// This file turns what went wrong reading a file into what is wrong with
// the file: the parser's own words say "unexpected EOF" for a misspelled
// closing tag and "empty document" for a CSV file. It runs only once
// reading has failed, so a plan that reads pays nothing for it.

// charsetReader reads a plan in the encoding its XML declaration names
// (<?xml … encoding="ISO-8859-1"?>), as JMeter's parser does; gojm works
// in UTF-8 from there on.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	enc, err := ianaindex.IANA.Encoding(label)
	if err != nil || enc == nil {
		return nil, fmt.Errorf("the file declares the encoding %q, which gojm does not know: save it as UTF-8", label)
	}
	return enc.NewDecoder().Reader(input), nil
}

// readError names what kept a file from being read: a folder given as a
// plan, or the system's error.
func readError(err error) error {
	if errors.Is(err, syscall.EISDIR) {
		return errors.New("this is a folder, not a plan: give gojm the .jmx file saved by JMeter")
	}
	return err
}

// malformed says what is wrong with XML that did not parse: a closing
// tag that is misspelled or one too many, with its line and the element
// it should have closed; text that is not in the declared encoding; or,
// for a file that ends early, the element left open and where it opened.
func malformed(data []byte, parseErr error) error {
	const fix = "; fix the file, or save the plan again from JMeter"
	// RawToken leaves the matching of tags to this loop, which knows
	// where each element opened.
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	type tag struct {
		name       string
		line, shut int // where it opened and closed
	}
	var stack []tag
	var last tag // the element closed last
	for {
		tok, err := d.RawToken()
		line, _ := d.InputPos()
		if err == io.EOF {
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				return fmt.Errorf("malformed XML: the file ends inside <%s>, opened on line %d (is it cut short?)%s", top.name, top.line, fix)
			}
			return fmt.Errorf("malformed XML: %w%s", parseErr, fix)
		}
		if err != nil {
			var se *xml.SyntaxError
			if !errors.As(err, &se) {
				return fmt.Errorf("malformed XML: %w%s", err, fix)
			}
			if se.Msg == "unexpected EOF" && len(stack) > 0 {
				top := stack[len(stack)-1]
				return fmt.Errorf("malformed XML: the file ends inside <%s>, opened on line %d (is it cut short?)%s", top.name, top.line, fix)
			}
			msg := se.Msg
			if strings.Contains(msg, "invalid UTF-8") {
				msg += " (the file is not UTF-8: declare its encoding, <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>, or save it as UTF-8)"
			}
			return fmt.Errorf("malformed XML on line %d: %s%s", se.Line, msg, fix)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tag{name: qname(t.Name), line: line})
		case xml.EndElement:
			name := qname(t.Name)
			if len(stack) > 0 && stack[len(stack)-1].name == name {
				last = stack[len(stack)-1]
				last.shut = line
				stack = stack[:len(stack)-1]
				continue
			}
			switch {
			case len(stack) == 0:
				return fmt.Errorf("malformed XML on line %d: </%s> after the end of the document (one closing tag too many)%s", line, name, fix)
			case last.name == name:
				top := stack[len(stack)-1]
				return fmt.Errorf("malformed XML on line %d: one </%s> too many: the <%s> of line %d closed on line %d, and <%s> of line %d is the element open here%s", line, name, name, last.line, last.shut, top.name, top.line, fix)
			default:
				top := stack[len(stack)-1]
				return fmt.Errorf("malformed XML on line %d: </%s> where </%s> was expected, to close the <%s> of line %d (is the tag misspelled?)%s", line, name, top.name, top.name, top.line, fix)
			}
		}
	}
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// notXML says what a file with no XML element in it is: empty, or a
// JSON, CSV or results file given where a plan was wanted.
func notXML(data []byte) error {
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	first, _, _ := bytes.Cut(text, []byte("\n"))
	switch {
	case len(text) == 0:
		return fmt.Errorf("the file is empty: %w", ErrNotPlan)
	case !utf8.Valid(first) || bytes.IndexByte(first, 0) >= 0:
		return fmt.Errorf("a binary file, not XML: %w; give gojm a .jmx file saved by JMeter", ErrNotPlan)
	case text[0] == '{' || text[0] == '[':
		return fmt.Errorf("a JSON file, not XML: %w; give gojm a .jmx file saved by JMeter", ErrNotPlan)
	case bytes.Contains(first, []byte("timeStamp")) && bytes.Contains(first, []byte("elapsed")):
		return fmt.Errorf("a results file (JTL), not a plan: %w; gojm report reads it", ErrNotPlan)
	case bytes.ContainsAny(first, ",;\t"):
		return fmt.Errorf("a CSV or text file, not XML: %w; give gojm a .jmx file saved by JMeter", ErrNotPlan)
	}
	return fmt.Errorf("a text file with no XML element in it: %w; give gojm a .jmx file saved by JMeter", ErrNotPlan)
}
