package script

import (
	"fmt"
	"slices"
)

// testJar is a case's Cookie Manager: a list changed as JMeter 5.6's
// CookieManager changes it (the recorder's stand-in does the same).
type testJar struct{ cks []Cookie }

func newTestJar(rows [][]any) *testJar {
	j := &testJar{}
	for _, r := range rows {
		s := func(i int) string { v, _ := r[i].(string); return v }
		sec, _ := r[4].(bool)
		exp, _ := r[5].(float64)
		j.Add(Cookie{Name: s(0), Value: s(1), Domain: s(2), Path: s(3), Secure: sec, Expires: int64(exp), PathSpecified: true, DomainSpecified: true})
	}
	return j
}

func (j *testJar) Len() int { return len(j.cks) }

func (j *testJar) Get(i int) (Cookie, bool) {
	if i < 0 || i >= len(j.cks) {
		return Cookie{}, false
	}
	return j.cks[i], true
}

func (j *testJar) Remove(i int) bool {
	if i < 0 || i >= len(j.cks) {
		return false
	}
	j.cks = slices.Delete(j.cks, i, i+1)
	return true
}

func (j *testJar) Add(c Cookie) {
	j.cks = slices.DeleteFunc(j.cks, func(o Cookie) bool { return o.Name == c.Name && o.Path == c.Path && o.Domain == c.Domain })
	if c.Value != "" {
		j.cks = append(j.cks, c)
	}
}

func (j *testJar) Clear() { j.cks = nil }

func (j *testJar) SetValue(name, domain, path, value string) {
	for i := range j.cks {
		if c := &j.cks[i]; c.Name == name && c.Domain == domain && c.Path == path {
			c.Value = value
		}
	}
}

// strings are the cookies as Cookie.toString writes them.
func (j *testJar) strings() []string {
	var out []string
	for _, c := range j.cks {
		sec := "FALSE"
		if c.Secure {
			sec = "TRUE"
		}
		out = append(out, fmt.Sprintf("%s\tTRUE\t%s\t%s\t%d\t%s\t%s", c.Domain, c.Path, sec, c.Expires, c.Name, c.Value))
	}
	return out
}
