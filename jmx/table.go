package jmx

// Table returns the rows of a jmeter-plugins table property (a collection
// of rows of cols cells). Plugins before 0.5 saved their tables column by
// column: cols collections of equal length shorter than cols are read
// that way.
func (p *Prop) Table(cols int) [][]*Prop {
	members := p.Members()
	var rows [][]*Prop
	for _, m := range members {
		rows = append(rows, m.Members())
	}
	if len(rows) != cols {
		return rows
	}
	n := len(rows[0])
	for _, c := range rows {
		if len(c) != n || n >= cols {
			return rows
		}
	}
	t := make([][]*Prop, n)
	for i := range t {
		for _, c := range rows {
			t[i] = append(t[i], c[i])
		}
	}
	return t
}
