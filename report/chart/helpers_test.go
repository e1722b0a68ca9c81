package chart

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
)

// -pngdir keeps a copy of every chart the tests draw, to look at them:
// go test ./report/chart -pngdir /tmp/charts
var pngDir = flag.String("pngdir", "", "also copy the PNGs the tests draw into this directory")

// keep copies a drawn chart into -pngdir, prefixed with the test name.
func keep(t *testing.T, path string) {
	t.Helper()
	if *pngDir == "" {
		return
	}
	if err := os.MkdirAll(*pngDir, 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	name := t.Name()
	if filepath.Ext(name) != ".png" {
		name += "-" + filepath.Base(path)
	}
	out, err := os.Create(filepath.Join(*pngDir, sanitize(name)))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '/' || c == ' ' {
			b[i] = '_'
		}
	}
	return string(b)
}

// decodePNG reads a chart and checks it is a 1200×700 PNG.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	keep(t, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("%s: %d×%d px, want %d×%d", path, b.Dx(), b.Dy(), Width, Height)
	}
	return img
}

// colourCounts counts the pixels of each colour (0xRRGGBB).
func colourCounts(img image.Image) map[uint32]int {
	m := make(map[uint32]int)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			m[r>>8<<16|g>>8<<8|bb>>8]++
		}
	}
	return m
}

// pixelsNear counts the pixels within tol of c on every channel.
func pixelsNear(counts map[uint32]int, c color.RGBA, tol int) int {
	n := 0
	for rgb, k := range counts {
		if near(int(rgb>>16), int(c.R), tol) && near(int(rgb>>8&0xff), int(c.G), tol) && near(int(rgb&0xff), int(c.B), tol) {
			n += k
		}
	}
	return n
}

func near(a, b, tol int) bool { return a-b <= tol && b-a <= tol }

// colourTolerance absorbs anti-aliasing at the edges of lines and glyphs.
const colourTolerance = 12

// minPixels is how many pixels of a colour make it "present": more than a
// stray anti-aliased edge, fewer than the smallest legend thumbnail.
const minPixels = 20

// wantColours checks each named colour is present (or absent) in img.
func wantColours(t *testing.T, img image.Image, present map[string]color.RGBA, absent map[string]color.RGBA) {
	t.Helper()
	counts := colourCounts(img)
	for name, c := range present {
		n := pixelsNear(counts, c, colourTolerance)
		if n < minPixels {
			t.Errorf("%s %v: %d pixels, want at least %d", name, c, n, minPixels)
		}
		t.Logf("%s: %d pixels", name, n)
	}
	for name, c := range absent {
		if n := pixelsNear(counts, c, colourTolerance); n > 0 {
			t.Errorf("%s %v: %d pixels, want none", name, c, n)
		}
	}
}

// synthetic describes a generated run.
type synthetic struct {
	n        int           // top-level samples
	every    time.Duration // time between sample starts
	labels   []string
	groups   int // thread groups
	threads  int // peak active threads, reached linearly
	failEach int // every failEach-th sample fails (0: none)
	subs     int // sub-samples of each sample
	txnEach  int // every txnEach-th sample is a Transaction Controller sample (0: none)
}

var base = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// each calls fn with every sample of the run, reusing one Sample as a
// decoder or the collector would.
func (sy synthetic) each(fn func(*report.Sample)) {
	if len(sy.labels) == 0 {
		sy.labels = []string{"Home", "Login", "Search"}
	}
	sy.groups = max(sy.groups, 1)
	sy.threads = max(sy.threads, 1)
	if sy.every == 0 {
		sy.every = 10 * time.Millisecond
	}
	var s report.Sample
	subs := make([]*report.Sample, sy.subs)
	for i := range subs {
		subs[i] = &report.Sample{Label: fmt.Sprintf("sub-%d", i), Code: "200", Success: true}
	}
	threadNames := make([]string, sy.groups)
	for g := range threadNames {
		threadNames[g] = fmt.Sprintf("Group %c %d-%d", 'A'+g, g+1, 1)
	}
	seed := uint64(42)
	for i := range sy.n {
		seed = seed*6364136223846793005 + 1442695040888963407
		jitter := time.Duration(seed>>40) % (20 * time.Millisecond)
		l := i % len(sy.labels)
		s.Start = base.Add(time.Duration(i) * sy.every)
		s.Elapsed = time.Duration(10+5*l)*time.Millisecond + jitter
		s.Latency = s.Elapsed * 3 / 4
		s.Connect = time.Millisecond
		s.Label = sy.labels[l]
		s.Success = sy.failEach == 0 || i%sy.failEach != 0
		s.Code = "200"
		if !s.Success {
			s.Code = "500"
		}
		s.ThreadName = threadNames[i%sy.groups]
		s.AllThreads = 1 + i*(sy.threads-1)/max(sy.n-1, 1)
		s.GrpThreads = max(1, s.AllThreads/sy.groups)
		s.Transaction = sy.txnEach > 0 && i%sy.txnEach == 0
		for _, sub := range subs { // within their parent
			sub.Start, sub.Elapsed, sub.ThreadName = s.Start, s.Elapsed/2, s.ThreadName
		}
		s.Sub = subs
		fn(&s)
	}
}

// feed adds the run's samples to sink.
func (sy synthetic) feed(sink report.Sink) {
	sy.each(sink.Add)
}
