package fslocal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// encodings decodes as a list of {glob, charset}; an entry naming no supported charset is a
// configuration error naming it.
func TestConfigYAMLEncodings(t *testing.T) {
	decode := func(src string) (any, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return loader.DecodeConfig(fslocal.Plugin, &n)
	}
	cfg, err := decode("encodings:\n  - glob: legacy/\n    charset: windows-1252\n  - { glob: '*.sjis', charset: Shift_JIS }")
	require.NoError(t, err)
	assert.Equal(t, []charset.Rule{{Glob: "legacy/", Charset: "windows-1252"}, {Glob: "*.sjis", Charset: "Shift_JIS"}}, cfg.(*fslocal.Config).Encodings)
	for src, msg := range map[string]string{
		"encodings: [{ glob: a, charset: gbk }, { glob: b, charset: nope }]": `fs-local: encodings[1] (glob "b"): unknown charset "nope" (a WHATWG Encoding Standard label, such as windows-1252 or shift_jis)`,
		"encodings: [{ glob: a, charset: iso-2022-jp }]":                     `fs-local: encodings[0] (glob "a"): charset "iso-2022-jp" is not supported (stateful)`,
		"encodings: [{ glob: '', charset: gbk }]":                            `fs-local: encodings[0]: glob "" is not a pattern (empty, a comment or negated)`,
	} {
		_, err := decode(src)
		assert.EqualError(t, err, msg, src)
	}
}

// A misspelt key of an entry is the decoder's unknown-field error, with its line.
func TestConfigYAMLEncodingsUnknownKey(t *testing.T) {
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("encodings:\n  - glob: a\n    charst: gbk\n"), &n))
	_, err := loader.DecodeConfig(fslocal.Plugin, &n)
	require.Error(t, err)
	assert.Equal(t, `line 3: unknown key "charst" in fslocal.Config.encodings`, err.Error())
}
