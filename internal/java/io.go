package java

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// Charset returns the decoder of a Java charset name; nil for UTF-8 (also
// for "", the platform default JMeter has on Linux), which needs none.
func Charset(name string) (encoding.Encoding, error) {
	n := strings.TrimSpace(name)
	switch strings.ToUpper(n) {
	case "", "UTF-8", "UTF8":
		return nil, nil
	case "UTF-16":
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), nil
	}
	e, err := ianaindex.IANA.Encoding(n)
	if err != nil || e == nil {
		return nil, fmt.Errorf("unknown file encoding %q", name)
	}
	return e, nil
}

// OpenText opens a text file for reading in a charset; a UTF-8 file's
// byte-order mark is dropped.
func OpenText(path, enc string) (io.ReadCloser, error) {
	if _, err := Charset(enc); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return TextReader(f, enc)
}

// TextReader reads an open file as text in a charset, from its start; a
// UTF-8 file's byte-order mark is dropped. Closing it closes f; on an error
// f is closed.
func TextReader(f *os.File, enc string) (io.ReadCloser, error) {
	return NewTextFile(f, enc)
}

// TextFile is an open file read as text in a charset (TextReader's
// reader) that can go back to its start without being opened again.
type TextFile struct {
	f     *os.File
	enc   encoding.Encoding // nil: UTF-8
	start int64             // where the text starts: after a UTF-8 byte-order mark
	r     io.Reader         // f, or a decoder reading f
}

// NewTextFile reads f as text in a charset from its start; a UTF-8 file's
// byte-order mark is dropped. Closing it closes f; on an error f is
// closed.
func NewTextFile(f *os.File, enc string) (*TextFile, error) {
	e, err := Charset(enc)
	if err != nil {
		f.Close()
		return nil, err
	}
	t := &TextFile{f: f, enc: e}
	if e != nil {
		t.r = e.NewDecoder().Reader(f)
		return t, nil
	}
	var bom [3]byte
	if n, _ := io.ReadFull(f, bom[:]); n == 3 && bom == [3]byte{0xEF, 0xBB, 0xBF} {
		t.start, t.r = 3, f // read on from here
		return t, nil
	}
	if err := t.Rewind(); err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

// Rewind goes back to the start of the text, as a new NewTextFile on the
// same file would read it: the file is not opened again, and a UTF-8
// file's reader makes nothing (another charset's makes a new decoder).
func (t *TextFile) Rewind() error {
	if _, err := t.f.Seek(t.start, io.SeekStart); err != nil {
		return err
	}
	t.r = t.f
	if t.enc != nil {
		t.r = t.enc.NewDecoder().Reader(t.f)
	}
	return nil
}

func (t *TextFile) Read(p []byte) (int, error) { return t.r.Read(p) }

// Close closes the file.
func (t *TextFile) Close() error { return t.f.Close() }

// MaxLine is the longest line ReadLine reads: a data file of one endless
// line must not fill the memory. Java's readLine has no limit.
const MaxLine = 1 << 20

// ErrLineTooLong is ReadLine's error for a line longer than MaxLine.
var ErrLineTooLong = errors.New("a line is longer than 1 MiB, the most gojm reads of one line")

// ReadLine reads one line as Java's BufferedReader.readLine does (the line
// ends at \n, \r or \r\n); ok is false at the end of the input.
func ReadLine(r *bufio.Reader) (line string, ok bool, err error) {
	// The usual line lies whole in the buffer: it is one string, made at
	// once. A line that does not, or ends in a \r the buffer ends with,
	// is read byte by byte.
	if _, err := r.Peek(1); err == nil {
		buf, _ := r.Peek(r.Buffered())
		if i := bytes.IndexAny(buf, "\r\n"); i >= 0 && (buf[i] == '\n' || i+1 < len(buf)) {
			line, n := string(buf[:i]), i+1
			if buf[i] == '\r' && buf[i+1] == '\n' {
				n++
			}
			_, _ = r.Discard(n)
			return line, true, nil
		}
	}
	var b []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF {
				if b == nil {
					return "", false, nil
				}
				return string(b), true, nil
			}
			return "", false, err
		}
		switch c {
		case '\n':
			return string(b), true, nil
		case '\r':
			if n, err := r.Peek(1); err == nil && n[0] == '\n' {
				_, _ = r.ReadByte()
			}
			return string(b), true, nil
		}
		if b == nil {
			b = make([]byte, 0, 64)
		}
		if len(b) == MaxLine {
			return "", false, ErrLineTooLong
		}
		b = append(b, c)
	}
}
