package fslocal

import (
	"fmt"
	"math"

	"go.yaml.in/yaml/v3"
)

// UnmarshalYAML decodes a config mapping strictly (an unknown key is the
// decoder's usual "field ... not found in type" error, with its line) and,
// like the reference, refuses a diffBasisMaxBytes that is not an integer in
// range (1.5, 1e300, .inf) with the validation message instead of letting
// the decoder truncate it. Integral floats (8.0, 1e3) are accepted.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		var unknown []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "cwd":
			case "diffBasisMaxBytes":
				if !integral(v) {
					return diffBasisError()
				}
			default:
				unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type fslocal.Config", k.Line, k.Value))
			}
		}
		if len(unknown) > 0 {
			return &yaml.TypeError{Errors: unknown}
		}
	}
	type plain Config // no UnmarshalYAML: the default decoding
	return n.Decode((*plain)(c))
}

// integral reports whether a float scalar is a whole number within the safe
// range; any other node is left to the decoder.
func integral(v *yaml.Node) bool {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!float" {
		return true
	}
	var f float64
	if err := v.Decode(&f); err != nil {
		return true
	}
	return f == math.Trunc(f) && math.Abs(f) <= float64(MaxDiffBasisBytes)
}
