package jmx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/beevik/etree"

	"github.com/gojm/gojm/internal/files"
)

// Plan is a loaded test plan: the root element (normally the TestPlan) and
// the file it came from.
type Plan struct {
	File string   // path the plan was read from ("" when read from a reader)
	Dir  string   // folder relative file names in the plan resolve against
	Root *Element // a synthetic root whose children are the top-level elements
	// Version is the jmeter attribute of <jmeterTestPlan> (or its properties
	// attribute for files older than JMeter 2.x).
	Version string
}

// TestPlan returns the plan's TestPlan element, or nil for a fragment file
// (the corpus has those) that has none.
func (p *Plan) TestPlan() *Element {
	for _, c := range p.Root.Children {
		if c.Class == "TestPlan" {
			return c
		}
	}
	return nil
}

// Error is a problem found in a plan, located by file and element path.
type Error struct {
	File string
	Path string // element path; "" when the problem is with the file itself
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotPlan is wrapped by errors for XML files that are not JMeter plans.
var ErrNotPlan = errors.New("not a JMeter test plan (the root element is not <jmeterTestPlan>)")

// MaxPlan is the largest plan file gojm reads: it holds a plan whole.
const MaxPlan = 64 << 20

// Load reads the plan at path and inlines its Include Controllers, reading
// included plans under the default file policy (the plan's folder and the
// working folder).
func Load(path string) (*Plan, error) {
	return LoadFiles(path, files.New(files.Options{Plan: path}))
}

// LoadFiles is Load with the policy under which included plans are read.
func LoadFiles(path string, pol *files.Policy) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{File: path, Err: errors.New("not a regular file (a folder, device or pipe): give gojm a .jmx file saved by JMeter")}
	}
	if st.Size() > MaxPlan {
		return nil, &Error{File: path, Err: fmt.Errorf("the file is %d MiB: gojm reads plans of at most %d MiB", st.Size()>>20, MaxPlan>>20)}
	}
	return read(io.LimitReader(f, MaxPlan), path, filepath.Dir(path), 0, pol)
}

// Read parses a plan from r. dir is the folder relative file references
// (Include Controllers) resolve against; name labels errors.
func Read(r io.Reader, name, dir string) (*Plan, error) {
	return read(r, name, dir, 0, files.New(files.Options{Plan: name, Dir: dir}))
}

// rootTag is the document element of every plan; the synthetic root
// Element carries it and is left out of paths.
const rootTag = "jmeterTestPlan"

// maxIncludeDepth stops an Include Controller that includes itself.
const maxIncludeDepth = 16

func read(r io.Reader, name, dir string, depth int, pol *files.Policy) (*Plan, error) {
	doc := etree.NewDocument()
	doc.ReadSettings.Permissive = false
	doc.ReadSettings.CharsetReader = charsetReader
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &Error{File: name, Err: readError(err)}
	}
	if err := doc.ReadFromBytes(data); err != nil {
		// etree's own words say nothing of where (diagnose.go does)
		return nil, &Error{File: name, Err: malformed(data, err)}
	}
	root := doc.Root()
	if root == nil {
		return nil, &Error{File: name, Err: notXML(data)}
	}
	if root.Tag != rootTag {
		return nil, &Error{File: name, Err: fmt.Errorf("root element <%s>: %w; give gojm a .jmx file saved by JMeter", root.Tag, ErrNotPlan)}
	}
	plan := &Plan{
		File:    name,
		Dir:     dir,
		Root:    &Element{Tag: rootTag, Class: rootTag, File: name},
		Version: root.SelectAttrValue("jmeter", root.SelectAttrValue("properties", "")),
	}
	top := root.SelectElement("hashTree")
	if top == nil {
		return nil, &Error{File: name, Err: errors.New("no <hashTree> under <jmeterTestPlan>")}
	}
	plan.Root.Children, plan.Root.All = readHashTree(top, plan.Root, name)
	inlineIncludes(plan, depth, pol)
	return plan, nil
}

// readHashTree folds a <hashTree>'s (element, hashTree) pairs into elements:
// the enabled ones, and all of them (disabled ones marked) in document order.
func readHashTree(ht *etree.Element, parent *Element, file string) (out, all []*Element) {
	kids := ht.ChildElements()
	for i := 0; i < len(kids); i++ {
		x := kids[i]
		if x.Tag == "hashTree" {
			continue // a stray tree with no element before it carries nothing
		}
		var sub *etree.Element
		if i+1 < len(kids) && kids[i+1].Tag == "hashTree" {
			sub = kids[i+1]
			i++
		}
		e := &Element{
			Tag:      x.Tag,
			Class:    x.SelectAttrValue("testclass", x.Tag),
			GUIClass: x.SelectAttrValue("guiclass", ""),
			Name:     x.SelectAttrValue("testname", ""),
			Parent:   parent,
			File:     file,
		}
		e.Props = readProps(x)
		if sub != nil {
			e.Children, e.All = readHashTree(sub, e, file)
		}
		all = append(all, e)
		if strings.EqualFold(x.SelectAttrValue("enabled", "true"), "false") {
			e.Disabled = true
			continue
		}
		out = append(out, e)
	}
	return out, all
}

// propKinds maps property tags to Prop.Kind.
var propKinds = map[string]string{
	"stringProp":     "string",
	"boolProp":       "bool",
	"intProp":        "int",
	"longProp":       "long",
	"doubleProp":     "double",
	"floatProp":      "float",
	"elementProp":    "element",
	"collectionProp": "collection",
	"objProp":        "object",
	"mapProp":        "map",
	// JMeter 2.x saved float properties of some elements (the Throughput
	// Controller's percentage) under the class name.
	"FloatProperty": "float",
}

func readProps(x *etree.Element) []*Prop {
	var out []*Prop
	for _, c := range x.ChildElements() {
		if p := readProp(c); p != nil {
			out = append(out, p)
		}
	}
	return out
}

func readProp(c *etree.Element) *Prop {
	kind, ok := propKinds[c.Tag]
	if !ok {
		return nil
	}
	p := &Prop{Kind: kind, Name: c.SelectAttrValue("name", "")}
	for _, a := range c.Attr {
		if a.Key != "name" && a.Space == "" {
			if p.Attrs == nil {
				p.Attrs = map[string]string{}
			}
			p.Attrs[a.Key] = a.Value
		}
	}
	switch kind {
	case "element", "collection", "map":
		p.Props = readProps(c)
	case "object":
		// <objProp><name>saveConfig</name><value class="…"><time>true</time>…</value></objProp>
		p.Name = childText(c, "name", p.Name)
		if v := c.SelectElement("value"); v != nil {
			if cls := v.SelectAttrValue("class", ""); cls != "" {
				if p.Attrs == nil {
					p.Attrs = map[string]string{}
				}
				p.Attrs["class"] = cls
			}
			for _, f := range v.ChildElements() {
				p.Props = append(p.Props, &Prop{Kind: "field", Name: f.Tag, Value: f.Text()})
			}
			if len(v.ChildElements()) == 0 {
				p.Value = v.Text()
			}
		}
	default:
		// TestBean style: <doubleProp><name>throughput</name><value>2.0</value>…
		if c.SelectElement("value") != nil || c.SelectElement("name") != nil {
			p.Name = childText(c, "name", p.Name)
			p.Value = childText(c, "value", "")
		} else {
			p.Value = c.Text()
		}
	}
	return p
}

func childText(x *etree.Element, tag, def string) string {
	if c := x.SelectElement(tag); c != nil {
		return c.Text()
	}
	return def
}

// inlineIncludes replaces the children of every Include Controller with the
// contents of the plan it names (the included TestPlan's children, as JMeter
// does), resolving relative paths against the plan's folder. An include
// outside the folders the plan may read is the element's Problem; one that
// cannot be read otherwise is its Warning, as JMeter runs the controller
// without it.
func inlineIncludes(plan *Plan, depth int, pol *files.Policy) {
	plan.Root.Walk(func(e *Element) bool {
		if e.Class != "IncludeController" {
			return true
		}
		if err := include(plan, e, depth, pol); errors.Is(err, files.ErrDenied) {
			e.Problem = err
		} else if err != nil {
			e.Warning = fmt.Errorf("%w: JMeter runs the plan without it, the Include Controller running nothing", err)
		}
		return false
	})
}

func include(plan *Plan, e *Element, depth int, pol *files.Policy) error {
	rel := strings.TrimSpace(e.Str("IncludeController.includepath"))
	if rel == "" {
		return errors.New("the Include Controller has no file name")
	}
	if depth >= maxIncludeDepth {
		return fmt.Errorf("includes nested deeper than %d (does %q include itself?)", maxIncludeDepth, rel)
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(plan.Dir, rel)
	}
	found, err := pol.FindCode(path)
	if err != nil {
		return fmt.Errorf("included plan: %w", err)
	}
	b, err := pol.ReadFile(found.Path)
	if err != nil {
		return fmt.Errorf("included plan: %w", err)
	}
	if found.Where != "" {
		e.Warning = fmt.Errorf("the included plan %q is not there (%s): including the file of that name %s instead, %s", rel, found.Named, found.Where, found.Path)
	}
	inc, err := read(bytes.NewReader(b), found.Path, filepath.Dir(found.Path), depth+1, pol)
	if err != nil {
		return fmt.Errorf("included plan: %w", err)
	}
	var kids []*Element
	for _, c := range inc.Root.Children {
		if c.Class == "TestPlan" {
			kids = append(kids, c.Children...)
		} else {
			kids = append(kids, c)
		}
	}
	for _, k := range kids {
		k.Parent = e
	}
	e.Children = append(e.Children, kids...)
	e.All = append(e.All, kids...)
	return nil
}
