// Package confint is the whole-number decoder of plugin configurations: a YAML integer scalar,
// nothing else (docs/tool-fs.md "Configuration", docs/attachments.md "Configuration").
package confint

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Int is a whole-number configuration value. Decoding refuses anything but an integer scalar: a
// fraction, which the YAML decoder would otherwise truncate into an integer field (`1.5` would
// become 1), a float spelled whole (`8.0`, `1e3`), a string, NaN or infinity; the refusal is
// `line <n>: cannot unmarshal <tag> `<value>` into an integer`.
type Int int64

// UnmarshalYAML accepts an integer scalar only.
func (n *Int) UnmarshalYAML(v *yaml.Node) error {
	var i int64
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&i) != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s `%s` into an integer", v.Line, v.ShortTag(), v.Value)}}
	}
	*n = Int(i)
	return nil
}
