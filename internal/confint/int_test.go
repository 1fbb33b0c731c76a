package confint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
)

func TestIntRefusesFractions(t *testing.T) {
	var v struct {
		N confint.Int            `yaml:"n"`
		M map[string]confint.Int `yaml:"m"`
	}
	require.NoError(t, yaml.Unmarshal([]byte("n: 12\nm: {a: 3}"), &v))
	assert.Equal(t, confint.Int(12), v.N)
	assert.Equal(t, map[string]confint.Int{"a": 3}, v.M)
	for _, src := range []string{"n: 1.5", "n: 2.0", "n: x", "m: {a: 0.5}", "n: [1]"} {
		require.Error(t, yaml.Unmarshal([]byte(src), &v), src)
	}
}

// A refusal names the line, the tag and the value as written.
func TestIntRefusalMessage(t *testing.T) {
	var v struct {
		N confint.Int `yaml:"n"`
	}
	for src, want := range map[string]string{
		"\nn: 8.0": "yaml: unmarshal errors:\n  line 2: cannot unmarshal !!float `8.0` into an integer",
		"n: 1e3":   "yaml: unmarshal errors:\n  line 1: cannot unmarshal !!float `1e3` into an integer",
		"n: '8'":   "yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `8` into an integer",
		"n: .inf":  "yaml: unmarshal errors:\n  line 1: cannot unmarshal !!float `.inf` into an integer",
	} {
		assert.EqualError(t, yaml.Unmarshal([]byte(src), &v), want, src)
	}
}
