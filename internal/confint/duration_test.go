package confint_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
)

func TestDurationDecodesGoDurationsOnly(t *testing.T) {
	var v struct {
		D confint.Duration `yaml:"d"`
	}
	require.NoError(t, yaml.Unmarshal([]byte("d: 1m30s"), &v))
	assert.Equal(t, confint.Duration(90*time.Second), v.D)
	err := yaml.Unmarshal([]byte("d: 5"), &v)
	assert.ErrorContains(t, err, "line 1: cannot unmarshal !!int `5` into a duration (write it as \"168h\")")
	err = yaml.Unmarshal([]byte("d: soon"), &v)
	assert.ErrorContains(t, err, `line 1: time: invalid duration "soon"`)
	out, err := yaml.Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, "d: 1m30s\n", string(out))
}
