package budget

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Int is a whole-number configuration value. Decoding refuses a fraction, which the YAML decoder
// would otherwise truncate into an integer field (`1.5` would become 1).
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
