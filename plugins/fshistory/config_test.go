package fshistory_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/fshistory"
)

func decodeConfig(t *testing.T, src string) (*fshistory.Config, error) {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n))
	cfg, err := loader.DecodeConfig(fshistory.Plugin, &n)
	if err != nil {
		return nil, err
	}
	return cfg.(*fshistory.Config), nil
}

func TestConfigDefaultsAndDurations(t *testing.T) {
	cfg, err := decodeConfig(t, "dir: /h")
	require.NoError(t, err)
	assert.Equal(t, "/h", cfg.Dir)
	assert.EqualValues(t, 256<<20, cfg.MaxBytes)
	assert.EqualValues(t, 16<<20, cfg.MaxContentBytes)
	assert.Equal(t, fshistory.Duration(168*time.Hour), cfg.MaxAge)
	assert.Equal(t, fshistory.Duration(5*time.Second), cfg.LockTimeout)

	cfg, err = decodeConfig(t, `{maxBytes: 8388608, maxAge: "90m"}`)
	require.NoError(t, err)
	assert.EqualValues(t, 8<<20, cfg.MaxBytes)
	assert.Equal(t, fshistory.Duration(90*time.Minute), cfg.MaxAge)
}

func TestConfigIsStrict(t *testing.T) {
	for src, want := range map[string]string{
		"maxAge: 168":         `into a duration (write it as "168h")`,
		`maxAge: "7 days"`:    `time: unknown unit`,
		`maxAge: "0s"`:        "fs-history: maxAge must be a positive duration",
		"maxBytes: 0":         "fs-history: maxBytes must be a positive integer",
		"maxBytes: 1.5":       "cannot unmarshal !!float `1.5` into an integer",
		"maxContentBytes: -1": "fs-history: maxContentBytes must be a positive integer",
		`lockTimeout: "-1s"`:  "fs-history: lockTimeout must be a positive duration",
		"maxbytes: 1":         `unknown key "maxbytes"`,
	} {
		_, err := decodeConfig(t, src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
}
