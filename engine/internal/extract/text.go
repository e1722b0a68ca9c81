package extract

import (
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
)

// The Regular Expression Extractor (RegexExtractor) and the Boundary
// Extractor (BoundaryExtractor): text extractors over a field of the sample.

// regexExtractor is a compiled Regular Expression Extractor.
type regexExtractor struct {
	name     string
	scope    response.Scope
	field    response.Field
	ref      *element.Template
	re       *response.RegexField
	tmpl     *element.Template
	parts    []tmplPart // the template parsed once when constant
	match    *element.Template
	def      *element.Template
	emptyDef bool
	// groups names the ref_g… variables once when the variable name is
	// constant, so that a sample does not build them again.
	groups *groupNames
}

// groupNames are the names of a match's group variables: base_g and
// base_g0 … base_gN.
type groupNames struct {
	g  string
	gi []string
}

func newGroupNames(base string, n int) *groupNames {
	names := &groupNames{g: base + "_g", gi: make([]string, n)}
	for i := range names.gi {
		names.gi[i] = names.g + strconv.Itoa(i)
	}
	return names
}

// name is base_gi.
func (n *groupNames) name(i int) string {
	if i < len(n.gi) {
		return n.gi[i]
	}
	return n.g + strconv.Itoa(i)
}

// tmplPart is a piece of a $1$ template: literal text or a group number.
type tmplPart struct {
	lit   string
	group int // -1 for literal text
}

// parseRegexTemplate splits "id=$1$&x=$2$" into literal and group parts.
func parseRegexTemplate(s string) []tmplPart {
	var out []tmplPart
	lit := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(s) || s[j] != '$' {
			continue
		}
		n, err := strconv.Atoi(s[i+1 : j])
		if err != nil {
			continue
		}
		if i > lit {
			out = append(out, tmplPart{lit: s[lit:i], group: -1})
		}
		out = append(out, tmplPart{group: n})
		lit = j + 1
		i = j
	}
	if lit < len(s) {
		out = append(out, tmplPart{lit: s[lit:], group: -1})
	}
	return out
}

func BuildRegex(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	f, err := response.ReadField(e, "RegexExtractor.useHeaders")
	if err != nil {
		return nil, err
	}
	pattern := c.Prop(e, "RegexExtractor.regex")
	re, err := response.NewRegexField(pattern, false)
	if err != nil {
		return nil, err
	}
	x := &regexExtractor{
		name:     e.Name,
		scope:    response.ReadScope(c, e),
		field:    f,
		ref:      c.Prop(e, "RegexExtractor.refname"),
		re:       re,
		tmpl:     c.Prop(e, "RegexExtractor.template"),
		match:    c.Prop(e, "RegexExtractor.match_number"),
		def:      c.Prop(e, "RegexExtractor.default"),
		emptyDef: e.Bool("RegexExtractor.default_empty_value", false),
	}
	if x.tmpl.Const() {
		x.parts = parseRegexTemplate(x.tmpl.Raw())
	}
	if x.ref.Const() {
		n := 10
		if pattern.Const() {
			if re, _, err := x.re.Get(nil); err == nil {
				n = re.NumSubexp() + 1
			}
		}
		x.groups = newGroupNames(x.ref.Raw(), n)
	}
	return x, nil
}

// reMatch is one match: its input and submatch offsets.
type reMatch struct {
	in  string
	idx []int
}

func (m *reMatch) group(i int) (string, bool) {
	if 2*i+1 >= len(m.idx) || m.idx[2*i] < 0 {
		return "", false
	}
	return m.in[m.idx[2*i]:m.idx[2*i+1]], true
}

func (x *regexExtractor) PostProcess(vu *element.VU, r *element.Result) {
	ref := x.ref.Eval(vu)
	number := intProp(vu, x.match, 0)
	// The value before the default replaces it: a match with the same
	// text takes it back rather than a new copy.
	before, hadBefore := vu.Vars.Get(ref)
	if def := x.def.Eval(vu); def != "" || x.emptyDef {
		vu.Vars.Put(ref, def)
	}
	re, pattern, err := x.re.Get(vu)
	if err != nil {
		vu.Warnf("Regular Expression Extractor %q: error in pattern %q: %v", x.name, pattern, err)
		return
	}
	var first [1]reMatch
	matches := first[:0]
	find := func(in string) {
		if number == 1 && len(matches) == 0 {
			// The usual case, the first match: one search, one slice.
			if idx := re.FindStringSubmatchIndex(in); idx != nil {
				matches = append(matches, reMatch{in: in, idx: idx})
			}
			return
		}
		limit := -1
		if number > 0 {
			limit = number - len(matches)
		}
		for _, idx := range re.FindAllStringSubmatchIndex(in, limit) {
			matches = append(matches, reMatch{in: in, idx: idx})
		}
	}
	if x.scope.Kind == response.ScopeVariable {
		if in, ok := vu.Vars.Get(x.scope.Var.Eval(vu)); ok {
			find(in)
		}
	} else {
		var buf [1]response.View
		for _, t := range x.scope.Samples(r, buf[:0]) {
			find(t.Text(x.field))
			if number > 0 && len(matches) >= number {
				break
			}
		}
	}
	parts := x.parts
	if parts == nil && !x.tmpl.Const() {
		parts = parseRegexTemplate(x.tmpl.Eval(vu))
	}
	prev := 0
	if _, ok := vu.Vars.Get(ref + matchNrSuffix); ok {
		prev = countVar(vu, ref+matchNrSuffix)
		vu.Vars.Remove(ref + matchNrSuffix)
	}
	count := 0
	if number >= 0 {
		if i := pick(vu, number, len(matches)); i >= 0 {
			if v := render(parts, &matches[i]); hadBefore && v == before {
				vu.Vars.Put(ref, before)
			} else {
				putVar(vu, ref, v)
			}
			saveGroups(vu, x.groupsOf(ref), &matches[i])
		} else {
			removeGroups(vu, x.groupsOf(ref))
		}
	} else {
		removeGroups(vu, x.groupsOf(ref))
		count = len(matches)
		vu.Vars.Put(ref+matchNrSuffix, strconv.Itoa(count))
		for i := range matches {
			n := nthName(ref, i+1)
			putVar(vu, n, render(parts, &matches[i]))
			saveGroups(vu, newGroupNames(n, 0), &matches[i])
		}
	}
	for i := count + 1; i <= prev; i++ {
		n := nthName(ref, i)
		vu.Vars.Remove(n)
		removeGroups(vu, newGroupNames(n, 0))
	}
}

// groupsOf names the group variables of ref, the extractor's variable.
func (x *regexExtractor) groupsOf(ref string) *groupNames {
	if x.groups != nil {
		return x.groups
	}
	return newGroupNames(ref, 0)
}

// render fills a $n$ template from a match. A group that did not take part
// in the match, or does not exist, renders as "null" (JMeter's ORO engine).
func render(parts []tmplPart, m *reMatch) string {
	if len(parts) == 1 && parts[0].group >= 0 {
		if s, ok := m.group(parts[0].group); ok {
			return s
		}
		return "null"
	}
	var b strings.Builder
	for _, p := range parts {
		if p.group < 0 {
			b.WriteString(p.lit)
			continue
		}
		if s, ok := m.group(p.group); ok {
			b.WriteString(s)
		} else {
			b.WriteString("null")
		}
	}
	return b.String()
}

// saveGroups sets base_g0 … base_gN and base_g (the number of groups),
// removing groups left over from an earlier match with more of them.
func saveGroups(vu *element.VU, names *groupNames, m *reMatch) {
	prev := countVar(vu, names.g)
	groups := len(m.idx) / 2
	for i := 0; i < groups; i++ {
		if s, ok := m.group(i); ok {
			putVar(vu, names.name(i), s)
		} else {
			vu.Vars.Remove(names.name(i))
		}
	}
	vu.Vars.Put(names.g, strconv.Itoa(groups-1)) // small numbers are not allocated
	for i := groups; i <= prev; i++ {
		vu.Vars.Remove(names.name(i))
	}
}

// removeGroups removes base_g and base_g0 … base_gN.
func removeGroups(vu *element.VU, names *groupNames) {
	n := countVar(vu, names.g)
	vu.Vars.Remove(names.g)
	for i := 0; i <= n; i++ {
		vu.Vars.Remove(names.name(i))
	}
}

// boundaryExtractor is a compiled Boundary Extractor.
type boundaryExtractor struct {
	name        string
	scope       response.Scope
	field       response.Field
	ref         *element.Template
	left, right *element.Template
	match       *element.Template
	def         *element.Template
	emptyDef    bool
}

func BuildBoundary(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	f, err := response.ReadField(e, "BoundaryExtractor.useHeaders")
	if err != nil {
		return nil, err
	}
	x := &boundaryExtractor{
		name:     e.Name,
		scope:    response.ReadScope(c, e),
		field:    f,
		ref:      c.Prop(e, "BoundaryExtractor.refname"),
		left:     c.Prop(e, "BoundaryExtractor.lboundary"),
		right:    c.Prop(e, "BoundaryExtractor.rboundary"),
		match:    c.Prop(e, "BoundaryExtractor.match_number"),
		def:      c.Prop(e, "BoundaryExtractor.default"),
		emptyDef: e.Bool("BoundaryExtractor.default_empty_value", false),
	}
	if x.ref.Const() && x.ref.Raw() == "" {
		// JMeter throws each time the extractor runs.
		c.Plan().Log.Warn("the element will fail each time it runs: the variable name is empty", "element", e.Path())
	}
	return x, nil
}

func (x *boundaryExtractor) PostProcess(vu *element.VU, r *element.Result) {
	ref := x.ref.Eval(vu)
	if ref == "" {
		vu.Warnf("Boundary Extractor %q: no variable name", x.name)
		return
	}
	if def := x.def.Eval(vu); strings.TrimSpace(def) != "" || x.emptyDef {
		vu.Vars.Put(ref, def)
	}
	number := intProp(vu, x.match, 0)
	prev := 0
	if _, ok := vu.Vars.Get(ref + matchNrSuffix); ok {
		prev = countVar(vu, ref+matchNrSuffix)
		vu.Vars.Remove(ref + matchNrSuffix)
	}
	left, right := x.left.Eval(vu), x.right.Eval(vu)
	var matches []string
	if x.scope.Kind == response.ScopeVariable {
		in, _ := vu.Vars.Get(x.scope.Var.Eval(vu))
		matches = boundaries(left, right, number, in, nil)
	} else {
		var buf [1]response.View
		for _, t := range x.scope.Samples(r, buf[:0]) {
			matches = boundaries(left, right, -1, t.Text(x.field), matches)
		}
		if number > 0 {
			if number <= len(matches) {
				matches = matches[number-1 : number]
			} else {
				matches = nil
			}
		}
	}
	count := 0
	switch {
	case number >= 0 && len(matches) == 0:
	case number == 0:
		putVar(vu, ref, matches[vu.Rand.IntN(len(matches))])
	case number > 0:
		if len(matches) == 1 {
			putVar(vu, ref, matches[0])
		}
	default:
		count = len(matches)
		vu.Vars.Put(ref+matchNrSuffix, strconv.Itoa(count))
		for i, m := range matches {
			putVar(vu, nthName(ref, i+1), m)
		}
	}
	for i := count + 1; i <= prev; i++ {
		vu.Vars.Remove(nthName(ref, i))
	}
}

// boundaries appends the text between left and right boundaries in s, as
// JMeter's Boundary Extractor finds it: the search for the next left
// boundary resumes right after the previous left boundary, so matches may
// overlap. number > 0 keeps only that match; an empty boundary means the
// start or the end of the input.
func boundaries(left, right string, number int, s string, out []string) []string {
	if strings.TrimSpace(s) == "" {
		return out
	}
	switch {
	case left == "" && right == "":
		return append(out, s)
	case left == "":
		if i := strings.Index(s, right); i >= 0 {
			return append(out, s[:i])
		}
	case right == "":
		if i := strings.Index(s, left); i >= 0 {
			return append(out, s[i+len(left):])
		}
	}
	found := 0
	for start := 0; ; start += len(left) {
		i := strings.Index(s[start:], left)
		if i < 0 {
			break
		}
		start += i
		j := strings.Index(s[start+len(left):], right)
		if j < 0 {
			break
		}
		found++
		m := s[start+len(left) : start+len(left)+j]
		if number <= 0 {
			out = append(out, m)
		} else if found == number {
			return append(out, m)
		}
		if len(left) == 0 {
			break // an empty left boundary would find itself forever
		}
	}
	return out
}
