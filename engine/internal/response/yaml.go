package response

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gojm/gojm/jmx"
	"go.yaml.in/yaml/v3"
)

// PluginInput is the reader of a jp@gc JSON/YAML Path element's input
// format (INPUT_FORMAT): nil for JSON (the default), which JSONDoc reads
// itself, or ParseYAML.
func PluginInput(e *jmx.Element) (func(string) (any, error), error) {
	switch f := e.Str("INPUT_FORMAT"); f {
	case "", "JSON":
		return nil, nil
	case "YAML":
		return ParseYAML, nil
	default:
		return nil, fmt.Errorf("input format %q is unknown (JSON or YAML)", f)
	}
}

// ErrNotYAML is a document that is not YAML.
var ErrNotYAML = errors.New("not a YAML document")

// ParseYAML reads a YAML document into the tree ParseJSON makes (*Object
// with the document's key order, []any, string, int64, float64,
// json.Number, bool and nil), for the jp@gc JSON/YAML Path elements with
// the input format YAML: the plugin turns YAML into JSON (Jackson's YAML
// reader) before its JSONPath runs. Aliases are followed; keys are their
// scalar text.
//
// An anchored value is converted once and every alias of it shares the
// result (the tree is only read after parsing). Aliases may add at most
// MaxYAMLAliasNodes nodes to the document as written: a few hundred bytes
// of nested aliases (a "billion laughs" body) would otherwise expand to
// millions of nodes, for JSONPath to walk on every sample.
func ParseYAML(s string) (any, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(s), &root); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotYAML, err)
	}
	if root.Kind == 0 {
		return nil, fmt.Errorf("%w: the document is empty", ErrNotYAML)
	}
	r := yamlReader{anchors: map[*yaml.Node]*yamlAnchor{}}
	v, _, err := r.value(&root, 0)
	return v, err
}

// MaxYAMLAliasNodes is how many nodes the aliases of one YAML document may
// add to it, counted as if each alias were a copy of its anchor's value.
const MaxYAMLAliasNodes = 100_000

// yamlReader converts one document's nodes.
type yamlReader struct {
	anchors map[*yaml.Node]*yamlAnchor // the anchored nodes converted so far
	aliased int                        // the nodes aliases added
}

// yamlAnchor is an anchored node's value and how many nodes it expands to;
// busy while its own value is being read (an alias there is a cycle).
type yamlAnchor struct {
	v     any
	nodes int
	busy  bool
}

// value converts n, returning it and the number of nodes it expands to.
func (r *yamlReader) value(n *yaml.Node, depth int) (any, int, error) {
	if depth > 1000 {
		return nil, 0, fmt.Errorf("%w: nested too deep", ErrNotYAML)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, 1, nil
		}
		return r.value(n.Content[0], depth+1)
	case yaml.AliasNode:
		if a, ok := r.anchors[n.Alias]; ok && a.busy {
			return nil, 0, fmt.Errorf("%w: the alias *%s at line %d is inside its own anchor", ErrNotYAML, n.Value, n.Line)
		}
		v, nodes, err := r.value(n.Alias, depth+1) // read once, then shared
		if err != nil {
			return nil, 0, err
		}
		if r.aliased += nodes; r.aliased > MaxYAMLAliasNodes {
			return nil, 0, fmt.Errorf("%w: its aliases expand it by more than %d nodes", ErrNotYAML, MaxYAMLAliasNodes)
		}
		return v, nodes, nil
	}
	if n.Anchor == "" {
		return r.plain(n, depth)
	}
	if a, ok := r.anchors[n]; ok {
		return a.v, a.nodes, nil
	}
	a := &yamlAnchor{busy: true}
	r.anchors[n] = a
	v, nodes, err := r.plain(n, depth)
	if err != nil {
		return nil, 0, err
	}
	a.v, a.nodes, a.busy = v, nodes, false
	return v, nodes, nil
}

// plain converts a node that is not an alias.
func (r *yamlReader) plain(n *yaml.Node, depth int) (any, int, error) {
	switch n.Kind {
	case yaml.SequenceNode:
		a := make([]any, 0, len(n.Content))
		nodes := 1
		for _, k := range n.Content {
			v, c, err := r.value(k, depth+1)
			if err != nil {
				return nil, 0, err
			}
			a = append(a, v)
			nodes += c
		}
		return a, nodes, nil
	case yaml.MappingNode:
		o := &Object{}
		nodes := 1
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			for key.Kind == yaml.AliasNode {
				key = key.Alias
			}
			if key.Kind != yaml.ScalarNode {
				return nil, 0, fmt.Errorf("%w: a key that is not a scalar at line %d", ErrNotYAML, key.Line)
			}
			if key.Tag == "!!merge" {
				return nil, 0, fmt.Errorf("%w: merge keys (<<) are not supported, at line %d", ErrNotYAML, key.Line)
			}
			v, c, err := r.value(n.Content[i+1], depth+1)
			if err != nil {
				return nil, 0, err
			}
			o.SetValueForKey(key.Value, v)
			nodes += c
		}
		return o, nodes, nil
	}
	return yamlScalar(n), 1, nil
}

// yamlScalar is a scalar as its resolved tag types it.
func yamlScalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
		if _, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil {
			return json.Number(strings.ReplaceAll(n.Value, "_", "")) // past int64, as ParseJSON keeps it
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return n.Value
}
