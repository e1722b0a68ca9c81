package jmx

import (
	"strconv"
	"strings"
)

// PathSep separates element names in a path, as JMeter's GUI tree shows them.
const PathSep = " › "

// Element is one test element of a plan: a sampler, controller, config
// element, listener… Children hold the elements of its <hashTree>, in order.
type Element struct {
	Tag      string // XML tag, e.g. "HTTPSamplerProxy" or the old "HTTPSampler"
	Class    string // testclass attribute (the tag where it is absent)
	GUIClass string // guiclass attribute
	Name     string // testname attribute
	Props    []*Prop
	Children []*Element
	// All holds the enabled and the disabled elements of the <hashTree>, in
	// document order. Only a Module Controller looks at disabled elements:
	// it may run a controller the plan keeps disabled as a library.
	All []*Element
	// Disabled is set on an element whose enabled attribute is "false"; such
	// an element is in its parent's All but not in its Children.
	Disabled bool
	Parent   *Element
	// File is the plan file the element was read from (differs from the
	// root's file for elements inlined by an Include Controller).
	File string
	// Problem is what went wrong resolving the element while loading (an
	// Include Controller's file outside the folders the plan may read): the
	// plan still loads, so that every element can be listed, but it cannot
	// run.
	Problem error
	// Warning is what went wrong resolving the element that JMeter runs
	// past (an Include Controller's file that is not there: the controller
	// runs nothing of it).
	Warning error
}

// Prop is one property of an element. Scalar kinds keep their text in Value;
// element, collection, object and map properties keep their members in Props.
type Prop struct {
	Kind  string // "string", "bool", "int", "long", "double", "float", "element", "collection", "object", "map", or "field" for members of an object property
	Name  string
	Value string
	Props []*Prop
	// Attrs keeps the XML attributes other than name (elementType, testclass,
	// guiclass, class …) for element and object properties.
	Attrs map[string]string
}

// Path names the element by the names of its ancestors and itself, as
// "Test Plan › Users › Login". Unnamed elements show their class.
func (e *Element) Path() string {
	var parts []string
	for x := e; x != nil && x.Tag != rootTag; x = x.Parent {
		parts = append(parts, x.label())
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, PathSep)
}

func (e *Element) label() string {
	if e.Name != "" {
		return e.Name
	}
	return e.Class
}

// Prop returns the element's property called name, or nil.
func (e *Element) Prop(name string) *Prop { return findProp(e.Props, name) }

// Str returns the text of the scalar property called name, or "" when absent.
func (e *Element) Str(name string) string { return e.StrOr(name, "") }

// StrOr returns the text of the property called name, or def when absent.
func (e *Element) StrOr(name, def string) string {
	if p := e.Prop(name); p != nil {
		return p.Value
	}
	return def
}

// Has reports whether the element has a property called name.
func (e *Element) Has(name string) bool { return e.Prop(name) != nil }

// Bool returns the boolean property called name, or def when it is absent or
// not a boolean. JMeter reads "true" case-insensitively; anything else is false.
func (e *Element) Bool(name string, def bool) bool {
	p := e.Prop(name)
	if p == nil {
		return def
	}
	return parseBool(p.Value, def)
}

// Prop returns the member property called name, or nil.
func (p *Prop) Prop(name string) *Prop {
	if p == nil {
		return nil
	}
	return findProp(p.Props, name)
}

// Str returns the text of the member property called name, or "".
func (p *Prop) Str(name string) string {
	if m := p.Prop(name); m != nil {
		return m.Value
	}
	return ""
}

// Bool returns the boolean member property called name, or def.
func (p *Prop) Bool(name string, def bool) bool {
	m := p.Prop(name)
	if m == nil {
		return def
	}
	return parseBool(m.Value, def)
}

func parseBool(s string, def bool) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return def
	}
	return strings.EqualFold(s, "true")
}

func findProp(props []*Prop, name string) *Prop {
	for _, p := range props {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Int parses a scalar property value as JMeter's getPropertyAsInt does: blank
// or non-numeric text gives def.
func Int(s string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return def
	}
	return n
}

// Walk calls fn for e and every element below it, depth first, in document
// order. It stops descending into an element's children when fn returns false.
func (e *Element) Walk(fn func(*Element) bool) {
	if !fn(e) {
		return
	}
	for _, c := range e.Children {
		c.Walk(fn)
	}
}

// Members returns the member properties of p (nil-safe).
func (p *Prop) Members() []*Prop {
	if p == nil {
		return nil
	}
	return p.Props
}
