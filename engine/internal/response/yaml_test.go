package response

import (
	"errors"
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
