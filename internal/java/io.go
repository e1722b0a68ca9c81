package java

import (
	"bufio"
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
	e, err := Charset(enc)
	if err != nil {
		f.Close()
		return nil, err
	}
	if e == nil {
		var bom [3]byte
		n, _ := io.ReadFull(f, bom[:])
		if n == 3 && bom == [3]byte{0xEF, 0xBB, 0xBF} {
			return f, nil
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{e.NewDecoder().Reader(f), f}, nil
}

// MaxLine is the longest line ReadLine reads: a data file of one endless
// line must not fill the memory. Java's readLine has no limit.
const MaxLine = 1 << 20

// ErrLineTooLong is ReadLine's error for a line longer than MaxLine.
var ErrLineTooLong = errors.New("a line is longer than 1 MiB, the most gojm reads of one line")

// ReadLine reads one line as Java's BufferedReader.readLine does (the line
// ends at \n, \r or \r\n); ok is false at the end of the input.
func ReadLine(r *bufio.Reader) (line string, ok bool, err error) {
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
