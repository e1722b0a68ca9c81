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
func ParseYAML(s string) (any, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(s), &root); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotYAML, err)
	}
	if root.Kind == 0 {
		return nil, fmt.Errorf("%w: the document is empty", ErrNotYAML)
	}
	return yamlValue(&root, 0)
}

func yamlValue(n *yaml.Node, depth int) (any, error) {
	if depth > 1000 {
		return nil, fmt.Errorf("%w: nested too deep", ErrNotYAML)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], depth+1)
	case yaml.AliasNode:
		return yamlValue(n.Alias, depth+1)
	case yaml.SequenceNode:
		a := make([]any, 0, len(n.Content))
		for _, k := range n.Content {
			v, err := yamlValue(k, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, nil
	case yaml.MappingNode:
		o := &Object{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			for key.Kind == yaml.AliasNode {
				key = key.Alias
			}
			if key.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%w: a key that is not a scalar at line %d", ErrNotYAML, key.Line)
			}
			if key.Tag == "!!merge" {
				return nil, fmt.Errorf("%w: merge keys (<<) are not supported, at line %d", ErrNotYAML, key.Line)
			}
			v, err := yamlValue(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			o.SetValueForKey(key.Value, v)
		}
		return o, nil
	}
	return yamlScalar(n), nil
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
