package jmx

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	col := func(vals ...string) *Prop {
		p := &Prop{Kind: "collection"}
		for _, v := range vals {
			p.Props = append(p.Props, &Prop{Kind: "string", Value: v})
		}
		return p
	}
	tests := []struct {
		name string
		p    *Prop
		cols int
		want string
	}{
		{"rows", &Prop{Kind: "collection", Props: []*Prop{col("1", "2", "3"), col("4", "5", "6")}}, 3, "1 2 3|4 5 6"},
		// before jmeter-plugins 0.5: one collection per column
		{"columns", &Prop{Kind: "collection", Props: []*Prop{col("1", "4"), col("2", "5"), col("3", "6")}}, 3, "1 2 3|4 5 6"},
		// three rows of three look like columns but are not shorter than cols
		{"square", &Prop{Kind: "collection", Props: []*Prop{col("1", "2", "3"), col("4", "5", "6"), col("7", "8", "9")}}, 3, "1 2 3|4 5 6|7 8 9"},
		{"absent", nil, 3, ""},
	}
	for _, tt := range tests {
		var rows []string
		for _, r := range tt.p.Table(tt.cols) {
			var cells []string
			for _, c := range r {
				cells = append(cells, c.Value)
			}
			rows = append(rows, strings.Join(cells, " "))
		}
		if got := strings.Join(rows, "|"); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
