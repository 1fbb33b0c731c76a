package fslocal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// Reference: "rejects non-positive, fractional, unsafe, or unallocatable
// diff-basis limits" (0, -1, 1.5, MAX+1, 2^53) — through the composition
// decoder, which would otherwise truncate 1.5 to 1.
func TestConfigYAMLDiffBasisLimits(t *testing.T) {
	const msg = "fs-local: diffBasisMaxBytes must be a positive safe integer no greater than 9007199254740991"
	decode := func(src string) (any, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return loader.DecodeConfig(fslocal.Plugin, &n)
	}
	for _, bad := range []string{"0", "-1", "1.5", "-1.5", "0.5", "9007199254740992", "9007199254740992.0", "1e300", ".inf", "-.inf", ".nan"} {
		_, err := decode("diffBasisMaxBytes: " + bad)
		require.Error(t, err, bad)
		assert.Equal(t, msg, err.Error(), bad)
	}
	for src, want := range map[string]int64{"9007199254740991": fslocal.MaxDiffBasisBytes, "8": 8, "8.0": 8, "1e3": 1000} {
		cfg, err := decode("diffBasisMaxBytes: " + src)
		require.NoError(t, err, src)
		assert.Equal(t, want, cfg.(*fslocal.Config).DiffBasisMaxBytes, src)
	}
	cfg, err := decode("cwd: /somewhere")
	require.NoError(t, err)
	assert.Equal(t, "/somewhere", cfg.(*fslocal.Config).Cwd)
	assert.Equal(t, fslocal.DefaultDiffBasisMaxBytes, cfg.(*fslocal.Config).DiffBasisMaxBytes, "defaults kept")

	_, err = decode("cwd: /x\nbogus: 1")
	var uk *loader.UnknownKeyError
	require.ErrorAs(t, err, &uk, "unknown keys stay strict errors")
	assert.Equal(t, "bogus", uk.Key)
	assert.Equal(t, 2, uk.Line)
	_, err = decode("diffBasisMaxBytes: '8'")
	require.Error(t, err, "a string is still a type error")
}

// maxFileBytes takes the same values as diffBasisMaxBytes, with its own name
// in the message; its default is 64 MiB.
func TestConfigYAMLMaxFileBytes(t *testing.T) {
	const msg = "fs-local: maxFileBytes must be a positive safe integer no greater than 9007199254740991"
	decode := func(src string) (any, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return loader.DecodeConfig(fslocal.Plugin, &n)
	}
	for _, bad := range []string{"0", "-1", "1.5", "9007199254740992", "1e300", ".inf"} {
		_, err := decode("maxFileBytes: " + bad)
		require.Error(t, err, bad)
		assert.Equal(t, msg, err.Error(), bad)
	}
	cfg, err := decode("maxFileBytes: 1e3")
	require.NoError(t, err)
	assert.Equal(t, int64(1000), cfg.(*fslocal.Config).MaxFileBytes)
	cfg, err = decode("cwd: /somewhere")
	require.NoError(t, err)
	assert.Equal(t, int64(67108864), cfg.(*fslocal.Config).MaxFileBytes)
	assert.Equal(t, fslocal.DefaultMaxFileBytes, cfg.(*fslocal.Config).MaxFileBytes)
}
