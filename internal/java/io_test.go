package java

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ReadLine splits as Java's BufferedReader.readLine, wherever the reader's
// buffer happens to end: a line whole in it, across it, a \r at its end.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 40)
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"LF", "a\nbc\n", []string{"a", "bc"}},
		{"CRLF", "a\r\nbc\r\n", []string{"a", "bc"}},
		{"CR alone", "a\rb\r", []string{"a", "b"}},
		{"CR CR LF", "a\r\r\nb", []string{"a", "", "b"}},
		{"no last line end", "a\nb", []string{"a", "b"}},
		{"empty lines", "\n\n\r\n", []string{"", "", ""}},
		{"empty input", "", nil},
		{"lines longer than the buffer", long + "\r\n" + long + "\n" + long, []string{long, long, long}},
		{"CRLF across the buffer's end", strings.Repeat("y", 15) + "\r\nz\n", []string{strings.Repeat("y", 15), "z"}},
		{"CR at the buffer's end, no LF", strings.Repeat("y", 15) + "\rz", []string{strings.Repeat("y", 15), "z"}},
		{"non-ASCII", "café\nnaïve\n", []string{"café", "naïve"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
			var got []string
			for {
				line, ok, err := ReadLine(r)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				got = append(got, line)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("lines %q, want %q", got, tc.want)
			}
		})
	}
}

// A TextFile read to its end and rewound reads the same text again, as a
// file opened anew would: the byte-order mark dropped, decoded again.
func TestTextFileRewind(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, enc, content, want string
	}{
		{"UTF-8", "UTF-8", "a,b\nc\n", "a,b\nc\n"},
		{"UTF-8 with a byte-order mark", "", "\ufeffname\nz\n", "name\nz\n"},
		{"ISO-8859-1", "ISO-8859-1", "caf\xe9\n", "café\n"},
		{"UTF-16 with a byte-order mark", "UTF-16", "\xfe\xff\x00h\x00i", "hi"},
		{"empty", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			tf, err := NewTextFile(f, tc.enc)
			if err != nil {
				t.Fatal(err)
			}
			defer tf.Close()
			for round := range 3 {
				b, err := io.ReadAll(tf)
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != tc.want {
					t.Errorf("read %d: %q, want %q", round, b, tc.want)
				}
				if err := tf.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
