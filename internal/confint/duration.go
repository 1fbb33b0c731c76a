package confint

import (
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration written as a Go duration string ("168h", "90m", "5s"). Decoding
// refuses anything but a string scalar (`line <n>: cannot unmarshal <tag> `<value>` into a
// duration (write it as "168h")`) and a string that is not a Go duration (`line <n>: <why>`).
type Duration time.Duration

// UnmarshalYAML accepts a duration string only.
func (d *Duration) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s `%s` into a duration (write it as \"168h\")", v.Line, v.ShortTag(), v.Value)}}
	}
	p, err := time.ParseDuration(v.Value)
	if err != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %v", v.Line, err)}}
	}
	*d = Duration(p)
	return nil
}

// MarshalYAML writes the duration string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }
