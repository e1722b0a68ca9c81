package report

import (
	"errors"
	"fmt"
	"io"
)

// csvReader splits delimited text into records by JMeter's rules
// (CSVSaveService.csvReadFile): a field is quoted only if it starts with a
// quote; inside quotes a doubled quote is a quote and line ends are data; a
// quote inside an unquoted field, or a lone quote followed by anything but
// the delimiter or a line end, is an error; LF, CR and CRLF all end a line.
//
// Fields are returned as slices of a buffer reused by the next call.
type csvReader struct {
	r     io.Reader
	buf   []byte
	pos   int
	end   int
	eof   bool
	delim byte

	line    int // physical line of the next record (1-based)
	recLine int // physical line where the last record started

	rec    []byte // unquoted content of the current record
	ends   []int  // end offset in rec of each field
	fields [][]byte
}

var errQuote = errors.New("malformed CSV quoting")

func newCSVReader(r io.Reader, delim byte, firstLine int) *csvReader {
	return &csvReader{r: r, buf: make([]byte, 64<<10), delim: delim, line: firstLine}
}

// fill reads more input; it returns false at the end of the input.
func (c *csvReader) fill() (bool, error) {
	if c.eof {
		return false, nil
	}
	for {
		n, err := c.r.Read(c.buf)
		c.pos, c.end = 0, n
		if err == io.EOF {
			c.eof = true
			err = nil
		}
		if err != nil {
			return false, err
		}
		if n > 0 {
			return true, nil
		}
		if c.eof {
			return false, nil
		}
	}
}

// peek returns the next byte without consuming it, or -1 at the end.
func (c *csvReader) peek() (int, error) {
	if c.pos == c.end {
		ok, err := c.fill()
		if !ok {
			return -1, err
		}
	}
	return int(c.buf[c.pos]), nil
}

const (
	stInitial = iota
	stPlain
	stQuoted
	stEmbeddedQuote
)

// read returns the next record, or io.EOF when there is none. A blank line
// is a record of one empty field.
func (c *csvReader) read() ([][]byte, error) {
	c.rec = c.rec[:0]
	c.ends = c.ends[:0]
	c.recLine = c.line
	state := stInitial
	started := false // some byte of this record was consumed
	for {
		if c.pos == c.end {
			ok, err := c.fill()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
		}
		// Fast path: copy a run of ordinary bytes of a plain or quoted field.
		if state == stPlain || state == stQuoted {
			i := c.pos
			for i < c.end {
				b := c.buf[i]
				if b == '"' || b == '\n' || b == '\r' || (b == c.delim && state == stPlain) {
					break
				}
				i++
			}
			c.rec = append(c.rec, c.buf[c.pos:i]...)
			c.pos = i
			if i == c.end {
				continue
			}
		}
		ch := c.buf[c.pos]
		c.pos++
		started = true
		eol := ch == '\n' || ch == '\r'
		if eol && state != stQuoted {
			c.line++
			if ch == '\r' {
				if n, err := c.peek(); err != nil {
					return nil, err
				} else if n == '\n' {
					c.pos++
				}
			}
			c.ends = append(c.ends, len(c.rec))
			return c.record(), nil
		}
		switch state {
		case stInitial:
			switch {
			case ch == '"':
				state = stQuoted
			case ch == c.delim:
				c.ends = append(c.ends, len(c.rec))
			default:
				c.rec = append(c.rec, ch)
				state = stPlain
			}
		case stPlain:
			if ch == '"' {
				return nil, fmt.Errorf("%w: a quote inside an unquoted field", errQuote)
			}
			// ch is the delimiter: the fast path stops only there.
			c.ends = append(c.ends, len(c.rec))
			state = stInitial
		case stQuoted:
			if ch == '"' {
				state = stEmbeddedQuote
			} else { // a line end inside quotes
				if ch == '\n' || ch == '\r' {
					if ch == '\r' {
						if n, err := c.peek(); err != nil {
							return nil, err
						} else if n == '\n' {
							c.rec = append(c.rec, ch)
							ch = '\n'
							c.pos++
						}
					}
					c.line++
				}
				c.rec = append(c.rec, ch)
			}
		case stEmbeddedQuote:
			switch ch {
			case '"':
				c.rec = append(c.rec, '"')
				state = stQuoted
			case c.delim:
				c.ends = append(c.ends, len(c.rec))
				state = stInitial
			default:
				return nil, fmt.Errorf("%w: a lone quote inside a quoted field", errQuote)
			}
		}
	}
	// End of input.
	if state == stQuoted {
		return nil, fmt.Errorf("%w: missing closing quote (field started on or after this line)", errQuote)
	}
	if !started {
		return nil, io.EOF
	}
	c.ends = append(c.ends, len(c.rec))
	return c.record(), nil
}

func (c *csvReader) record() [][]byte {
	c.fields = c.fields[:0]
	start := 0
	for _, e := range c.ends {
		c.fields = append(c.fields, c.rec[start:e:e])
		start = e
	}
	return c.fields
}
