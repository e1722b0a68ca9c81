package httpx

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
)

// Part is one piece of a request body: bytes, or the contents of a file
// read as the request is sent (JMeter streams uploaded files).
type Part struct {
	Data []byte
	File string
}

// partsBody reads a body made of parts, opening each file in turn.
type partsBody struct {
	parts  []Part
	i      int
	cur    io.Reader
	f      *os.File
	data   bytes.Reader
	closed atomic.Bool
}

// partsLength stats the files of a body; a missing file fails the request
// before anything is sent, as in JMeter.
func partsLength(parts []Part) (int64, error) {
	var n int64
	for _, p := range parts {
		if p.File == "" {
			n += int64(len(p.Data))
			continue
		}
		st, err := os.Stat(p.File)
		if err != nil {
			return 0, &FileError{Path: p.File, Err: err}
		}
		if st.IsDir() {
			return 0, &FileError{Path: p.File, Err: errors.New("is a directory")}
		}
		n += st.Size()
	}
	return n, nil
}

// FileError is a body file that cannot be read.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *FileError) Unwrap() error { return e.Err }

func (b *partsBody) reset(parts []Part) {
	b.close()
	b.parts, b.i, b.cur = parts, 0, nil
}

func (b *partsBody) Read(p []byte) (int, error) {
	for {
		if b.cur == nil {
			if b.i >= len(b.parts) {
				return 0, io.EOF
			}
			part := b.parts[b.i]
			b.i++
			if part.File == "" {
				b.data.Reset(part.Data)
				b.cur = &b.data
			} else {
				f, err := os.Open(part.File)
				if err != nil {
					return 0, &FileError{Path: part.File, Err: err}
				}
				b.f, b.cur = f, f
			}
		}
		n, err := b.cur.Read(p)
		if err == io.EOF {
			b.close()
			b.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

func (b *partsBody) close() {
	if b.f != nil {
		b.f.Close()
		b.f = nil
	}
}

func (b *partsBody) Close() error { b.close(); b.closed.Store(true); return nil }

// bytesBody is a reusable io.ReadCloser over a byte slice. The transport
// closes a request body when it is done with it; closed says whether it
// has, and a body it has not closed is left to it (the next request gets
// a new one).
type bytesBody struct {
	bytes.Reader
	closed atomic.Bool
}

func (b *bytesBody) Close() error { b.closed.Store(true); return nil }

// decoded wraps a response body in the decoder its Content-Encoding names,
// as JMeter's HttpClient does before extractors and assertions see it. An
// encoding it does not know leaves the body as it came.
func decoded(body io.Reader, encoding string) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(body)
		if err == io.EOF { // no body at all (a 304, a HEAD): nothing to decode
			return bytes.NewReader(nil), nil
		}
		return zr, err
	case "deflate":
		// Servers send either zlib-wrapped or raw deflate data; HttpClient
		// accepts both.
		br := bufioPeeker{r: body}
		head, _ := br.peek(2)
		if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			return zlib.NewReader(&br)
		}
		return flate.NewReader(&br), nil
	}
	return body, nil
}

// bufioPeeker lets the first bytes of a stream be looked at and then read.
type bufioPeeker struct {
	r    io.Reader
	head []byte
}

func (p *bufioPeeker) peek(n int) ([]byte, error) {
	for len(p.head) < n {
		var b [64]byte
		m, err := p.r.Read(b[:n-len(p.head)])
		p.head = append(p.head, b[:m]...)
		if err != nil {
			return p.head, err
		}
	}
	return p.head, nil
}

func (p *bufioPeeker) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// md5Body reads a whole body and returns the hex MD5 of it (JMeter's "Save
// response as MD5 hash").
func md5Body(body io.Reader, dst []byte) ([]byte, error) {
	h := md5.New()
	_, err := io.Copy(h, body)
	var sum [md5.Size]byte
	return hex.AppendEncode(dst[:0], h.Sum(sum[:0])), err
}
