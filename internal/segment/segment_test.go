package segment

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestEqualIsModulo(t *testing.T) {
	for n := 1; n <= 16; n++ {
		s, err := Equal(n)
		if err != nil {
			t.Fatal(err)
		}
		for v := int64(0); v < 1000; v++ {
			if got := s.Owner(v); got != int(v%int64(n)) {
				t.Fatalf("n=%d: index %d owned by %d, want %d", n, v, got, v%int64(n))
			}
		}
	}
}

// randomSequence draws n boundaries with small denominators.
func randomSequence(t *testing.T, r *rand.Rand, n int) *Sequence {
	t.Helper()
	for {
		den := int64(r.IntN(12) + 1)
		cuts := map[int64]bool{}
		for len(cuts) < n-1 && int64(len(cuts)) < den*int64(n)-1 {
			cuts[r.Int64N(den*int64(n)-1)+1] = true
		}
		if len(cuts) != n-1 {
			continue
		}
		parts := []string{"0"}
		for c := int64(1); c < den*int64(n); c++ {
			if cuts[c] {
				parts = append(parts, big.NewRat(c, den*int64(n)).RatString())
			}
		}
		parts = append(parts, "1")
		s, err := ParseSequence(strings.Join(parts, ","))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// TestStripingProperties checks, for random sequences of up to 16
// segments and counts up to 10,000, that the segments are disjoint and
// complete, that a segment's part never shrinks as the count grows, and
// that every prefix is split within one index of the shares.
func TestStripingProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := r.IntN(16) + 1
		s := randomSequence(t, r, n)
		share := make([]float64, n)
		for i := range share {
			w, _ := new(big.Rat).Sub(s.bounds[i+1], s.bounds[i]).Float64()
			share[i] = w
		}
		counts := make([]int64, n)
		for v := int64(0); v <= 10000; v++ {
			owners := 0
			for i := 0; i < n; i++ {
				g := Segment{Seq: s, Index: i}
				if g.Of(v) != counts[i] {
					t.Fatalf("%s: segment %d's part of %d is %d, counted %d", s, i, v, g.Of(v), counts[i])
				}
				if d := math.Abs(float64(counts[i]) - share[i]*float64(v)); d >= 1 {
					t.Fatalf("%s: segment %d has %d of the first %d indices, share %.4f (off by %.3f)", s, i, counts[i], v, share[i], d)
				}
				if g.Owns(v) {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("%s: index %d has %d owners", s, v, owners)
			}
			counts[s.Owner(v)]++
		}
	}
}

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in, want, err string
	}{
		{in: "0/4", want: "0/4"},
		{in: " 3/4 ", want: "3/4"},
		{in: "4/4", err: "i runs from 0 to 3"},
		{in: "1", err: "want i/n"},
		{in: "0/0", err: "0 segments"},
		{in: "a/2", err: "want i/n"},
	} {
		g, err := Parse(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q): error %v, want one saying %q", tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", tt.in, err)
		case g.String() != tt.want:
			t.Errorf("Parse(%q) = %s, want %s", tt.in, g, tt.want)
		}
	}
	for _, bad := range []string{"0,1/2", "0,1/2,1/3,1", "0,x,1", "1/2,1"} {
		if _, err := ParseSequence(bad); err == nil {
			t.Errorf("ParseSequence(%q) accepted", bad)
		}
	}
	if s, err := ParseSequence("0, 0.25, 1/2,1"); err != nil || s.String() != "0,1/4,1/2,1" {
		t.Errorf("ParseSequence: %v, %v", s, err)
	}
}

func TestNth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		s := randomSequence(t, r, r.IntN(8)+1)
		for i := 0; i < s.Len(); i++ {
			g := Segment{Seq: s, Index: i}
			j := int64(0)
			for v := int64(0); v < 2000; v++ {
				if !g.Owns(v) {
					continue
				}
				if got := g.Nth(j); got != v {
					t.Fatalf("%s segment %d: index %d of its own is %d, want %d", s, i, j, got, v)
				}
				j++
			}
		}
	}
}
