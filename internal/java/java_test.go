package java

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDecimalFormat(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		v       int64
		want    string
	}{
		{"000", 7, "007"},
		{"000", 1234, "1234"},
		{"#", 0, "0"},
		{"#,##0", 1234567, "1,234,567"},
		{"USER_000", 5, "USER_005"},
		{"'#'0", 5, "#5"},
		{"0.00", 3, "3.00"},
		{"00;(00)", -3, "(03)"},
		{"000", -3, "-003"},
		{"pin#'.'dat", 2, "pin2.dat"},
	} {
		f, err := NewDecimalFormat(tc.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := f.Format(tc.v); got != tc.want {
			t.Errorf("format(%q, %d) = %q, want %q", tc.pattern, tc.v, got, tc.want)
		}
	}
}

func TestRandomNextIntMatchesJava(t *testing.T) {
	// new util.Random(42).NextInt(100) ten times, as Java prints them.
	r := NewRandom(42)
	var got []string
	for range 10 {
		got = append(got, strconv.Itoa(int(r.NextInt(100))))
	}
	if want := "30 63 48 84 70 25 5 18 19 93"; strings.Join(got, " ") != want {
		t.Errorf("nextInt(100) = %v, want %s", got, want)
	}
	r = NewRandom(7)
	if got := r.NextInt(64); got != 46 {
		t.Errorf("new Random(7).NextInt(64) = %d, want 46", got)
	}
}

func TestTimeFormats(t *testing.T) {
	ts := time.Date(2024, 3, 5, 14, 7, 9, 123456789, time.FixedZone("", 3600))
	for _, tc := range []struct{ pattern, want string }{
		{"yyyy-MM-dd HH:mm:ss.SSS", "2024-03-05 14:07:09.123"},
		{"yy/M/d h:mm a", "24/3/5 2:07 PM"},
		{"EEE, dd MMM yyyy HH:mm:ss Z", "Tue, 05 Mar 2024 14:07:09 +0100"},
		{"EEEE MMMM D", "Tuesday March 65"},
		{"yyyy-MM-dd'T'HH:mm:ssXXX", "2024-03-05T14:07:09+01:00"},
		{"'quoted ''text'''", "quoted 'text'"},
		{"HHmmss", "140709"},
	} {
		f, err := NewTimeFormat(tc.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := f.Format(ts); got != tc.want {
			t.Errorf("format %q = %q, want %q", tc.pattern, got, tc.want)
		}
		if strings.ContainsAny(tc.pattern, "E'D") {
			continue
		}
		back, err := f.Parse(f.Format(ts), ts.Location())
		if err != nil {
			t.Errorf("parse %q: %v", tc.pattern, err)
		} else if got := f.Format(back.In(ts.Location())); got != f.Format(ts) {
			t.Errorf("round trip of %q = %q", tc.pattern, got)
		}
	}
	if _, err := NewTimeFormat("yyyy-bb"); err == nil {
		t.Error("unknown letter b accepted")
	}
}

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want time.Duration
	}{
		{"P1D", 24 * time.Hour},
		{"PT1H30M", 90 * time.Minute},
		{"-PT6H3M", -(6*time.Hour + 3*time.Minute)},
		{"PT-6H+3M", -6*time.Hour + 3*time.Minute},
		{"PT0.5S", 500 * time.Millisecond},
		{"P2DT3H4M", 51*time.Hour + 4*time.Minute},
	} {
		got, err := ParseDuration(tc.s)
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", tc.s, got, err, tc.want)
		}
	}
	for _, s := range []string{"", "P", "1D", "PT", "P1H"} {
		if _, err := ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", s)
		}
	}
}

func TestDoubleString(t *testing.T) {
	for in, want := range map[float64]string{1: "1.0", 0.1: "0.1", 1e10: "1.0E10", 1.5e-7: "1.5E-7", 12345678.9: "1.23456789E7", 1e-3: "0.001", 100: "100.0"} {
		if got := DoubleString(in); got != want {
			t.Errorf("DoubleString(%v) = %s, want %s", in, got, want)
		}
	}
}

func TestRegexTranslation(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{`a\d+b`, `a\d+b`, ""},
		{`\p{Alpha}[\p{Digit}_]`, `[a-zA-Z][0-9_]`, ""},
		{`x\Z`, `x(?:\n?\z)`, ""},
		{`\e\0101`, `\x1B\x{41}`, ""},
		{`[]a]`, `[\]a]`, ""},
		{`a+?b*?`, `a+?b*?`, ""},
		{`\Q(a)\E+`, `\Q(a)\E+`, ""},
		{`(?<name>\w+)`, `(?<name>\w+)`, ""},
		{`foo(?=bar)`, "", "look-ahead"},
		{`(?<!x)y`, "", "negative look-behind"},
		{`(a)\1`, "", "back-reference"},
		{`a++`, "", "possessive"},
		{`(?>a)`, "", "atomic"},
		{`[a-z&&[^b]]`, "", "intersection"},
	}
	for _, tc := range cases {
		got, err := Regex(tc.in, RE2)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Regex(%q, RE2) error = %v, want one mentioning %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Regex(%q, RE2) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// util.Random's sequence, as printed by Java for these seeds.
func TestRandomNextDoubleMatchesJava(t *testing.T) {
	tests := []struct {
		seed int64
		want []float64
	}{
		{42, []float64{0.7275636800328681, 0.6832234717598454, 0.30871945533265976}},
		{-7, []float64{0.2691218093260761}},
	}
	for _, tt := range tests {
		r := NewRandom(tt.seed)
		for i, w := range tt.want {
			if got := r.NextDouble(); got != w {
				t.Errorf("seed %d, draw %d: %v, want %v", tt.seed, i, got, w)
			}
		}
	}
}

func TestDecodeLong(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"42", 42, true}, {"-42", -42, true}, {"+7", 7, true}, {"0x1F", 31, true}, {"#ff", 255, true},
		{"-0X10", -16, true}, {"010", 8, true}, {"0", 0, true},
		{"-9223372036854775808", -9223372036854775808, true},
		{"", 0, false}, {"-", 0, false}, {"--1", 0, false}, {"0x", 0, false}, {"12a", 0, false}, {"9223372036854775808", 0, false},
	} {
		got, err := DecodeLong(tc.in)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("DecodeLong(%q) = %d, %v; want %d (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFloatStringAndRound(t *testing.T) {
	if got := FloatString(float32(100) / 3); got != "33.333332" {
		t.Errorf("FloatString(100/3) = %s", got)
	}
	for in, want := range map[float64]int64{2.5: 3, -2.5: -2, 0.49999999999999994: 0, 1e300: 9223372036854775807} {
		if got := Round(in); got != want {
			t.Errorf("Round(%v) = %d, want %d", in, got, want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{`a\tb`: "a\tb", `\u0041\uu0042`: "AB", `\101`: "A", `x\\y`: `x\y`, `plain`: "plain", `\q`: "q"} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDoubleAndFloatStrings(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.0"}, {1, "1.0"}, {100, "100.0"}, {0.5, "0.5"}, {1.0 / 3, "0.3333333333333333"},
		{666.6666666666666, "666.6666666666666"}, {1e7, "1.0E7"}, {12345678.9, "1.23456789E7"},
		{0.001, "0.001"}, {0.0001, "1.0E-4"}, {-2.5, "-2.5"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"},
		{1.5625, "1.5625"}, {9999999, "9999999.0"}, {math.Copysign(0, -1), "-0.0"},
	}
	for _, tt := range tests {
		if got := DoubleString(tt.in); got != tt.want {
			t.Errorf("DoubleString(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := FloatString(20); got != "20.0" {
		t.Errorf("FloatString(20) = %q", got)
	}
}

func TestHashMapOrder(t *testing.T) {
	// java.util.HashMap iteration order, checked with a JVM:
	// new HashMap<>(LinkedHashMap of these keys in this order).keySet()
	cases := []struct{ keys, want string }{
		{"category,author,title,price,url", "category,title,author,price,url"},
		{"id,name,email,roles,token,created_at,active,x1,x2,x3,x4,x5,x6,x7", "roles,created_at,active,token,name,x1,x2,id,x3,x4,x5,email,x6,x7"},
	}
	for _, tc := range cases {
		keys := strings.Split(tc.keys, ",")
		var got []string
		for _, i := range HashMapOrder(keys) {
			got = append(got, keys[i])
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("order %v, want %s", got, tc.want)
		}
	}
}

// ParseDouble is Double.parseDouble: what it reads, and where it throws.
func TestParseDouble(t *testing.T) {
	tests := []struct {
		txt  string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true},
		{" 2 ", 2, true},
		{"+.5", 0.5, true},
		{"5.", 5, true},
		{"1e3", 1000, true},
		{"-1.5e-1", -0.15, true},
		{"2d", 2, true},
		{"2.5F", 2.5, true},
		{"0x1p3", 8, true},
		{"Infinity", math.Inf(1), true},
		{"-Infinity", math.Inf(-1), true},
		{"inf", 0, false},
		{"nan", 0, false},
		{"1_000", 0, false},
		{"--1", 0, false},
		{"2ff", 0, false},
		{"abc", 0, false},
		{"${x}", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		if got, ok := ParseDouble(tt.txt); got != tt.want || ok != tt.ok {
			t.Errorf("ParseDouble(%q) = %v, %v; want %v, %v", tt.txt, got, ok, tt.want, tt.ok)
		}
	}
	if v, ok := ParseDouble("NaN"); !ok || !math.IsNaN(v) {
		t.Errorf("ParseDouble(NaN) = %v, %v", v, ok)
	}
}
