package response

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ohler55/ojg/jp"
)

// A YAML document reads into the tree JSONPath walks, keys in order.
func TestParseYAML(t *testing.T) {
	doc := `
store:
  book:
    - title: One
      price: 8.95
      count: 3
      tags: [a, b]
    - title: Two
      price: 12
      instock: true
      note: ~
  name: &n shop
  alias: *n
`
	v, err := ParseYAML(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
		all        bool // every match, as a list
	}{
		{"$.store.book[0].title", "One", false},
		{"$.store.book[0].price", "8.95", false},
		{"$.store.book[0].count", "3", false},
		{"$.store.book[1].price", "12", false},
		{"$.store.book[1].instock", "true", false},
		{"$.store.book[1].note", "null", false},
		{"$.store.alias", "shop", false},
		{"$.store.book[0].tags", `["a","b"]`, false},
		{"$.store.book[*].title", `["One","Two"]`, true},
	} {
		x, err := jp.ParseString(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		got := x.Get(v)
		s := PluginString(got)
		if len(got) == 1 && !tc.all {
			s = PluginString(got[0])
		}
		if s != tc.want {
			t.Errorf("%s = %s, want %s", tc.path, s, tc.want)
		}
	}
	if o, ok := v.(*Object); !ok || len(o.Keys()) != 1 {
		t.Errorf("root %T %v", v, v)
	}
	for _, bad := range []string{"a: [1, 2", "", "k: v\n  bad: indent\n x"} {
		if _, err := ParseYAML(bad); !errors.Is(err, ErrNotYAML) {
			t.Errorf("ParseYAML(%q): %v, want ErrNotYAML", bad, err)
		}
	}
}

// laughs is a "billion laughs" body: each level aliases the one before ten
// times, so that a few hundred bytes stand for levels^10 leaves.
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// Aliases share their anchor's value, and may not expand a document past
// MaxYAMLAliasNodes nodes.
func TestParseYAMLAliases(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		err       string // in the error; "" for none
		path      string // then read this
		want      string
	}{
		{"an alias reads its anchor", "a: &x {k: v}\nb: *x\n", "", "$.b.k", "v"},
		{"within the cap", laughs(3), "", "$.l3[9][9][9][0]", "lol"},
		{"a billion laughs", laughs(6), "aliases expand it by more than 100000 nodes", "", ""},
		{"an alias inside its own anchor", "a: &x [1, *x]\n", "inside its own anchor", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ParseYAML(tc.doc)
			if tc.err != "" {
				if !errors.Is(err, ErrNotYAML) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseYAML: %v, want ErrNotYAML with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := jp.MustParseString(tc.path).Get(v)
			if len(got) != 1 || PluginString(got[0]) != tc.want {
				t.Errorf("%s = %v, want %s", tc.path, got, tc.want)
			}
		})
	}
	// The anchor is converted once: both aliases hold the same object.
	v, err := ParseYAML("a: &x {k: v}\nb: *x\nc: *x\n")
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	a, _ := o.ValueForKey("a")
	b, _ := o.ValueForKey("b")
	c, _ := o.ValueForKey("c")
	if a != b || a != c {
		t.Errorf("aliases hold copies: %p %p %p", a, b, c)
	}
}
