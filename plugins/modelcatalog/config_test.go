package modelcatalog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
)

func TestDefaultConfig(t *testing.T) {
	cfg := modelcatalog.DefaultConfig()
	require.NoError(t, cfg.Validate())
	assert.Equal(t, modelcatalog.Config{
		DefaultModel: "default",
		Models:       []modelcatalog.Model{{ID: "default", Input: []string{"text", "image"}}},
	}, cfg)
}

func TestValidate(t *testing.T) {
	models := func(ms ...modelcatalog.Model) []modelcatalog.Model { return ms }
	m := func(id string, input ...string) modelcatalog.Model {
		if input == nil {
			return modelcatalog.Model{ID: id}
		}
		return modelcatalog.Model{ID: id, Input: input}
	}
	cases := []struct {
		name string
		cfg  modelcatalog.Config
		want string // "" = valid
	}{
		{"blank default", modelcatalog.Config{DefaultModel: " \t", Models: models(m("a"))},
			"model-catalog: defaultModel must be a non-empty string"},
		{"empty default", modelcatalog.Config{Models: models(m("a"))},
			"model-catalog: defaultModel must be a non-empty string"},
		{"blank id", modelcatalog.Config{DefaultModel: "a", Models: models(m("a"), m(" "))},
			"model-catalog: models[1].id must be a non-empty string"},
		{"duplicate id, other case", modelcatalog.Config{DefaultModel: "a", Models: models(m("Vision"), m("a"), m("vISION"))},
			`model-catalog: models[2].id "vISION" duplicates models[0]`},
		{"unknown modality", modelcatalog.Config{DefaultModel: "a", Models: models(m("a", "text", "audio"))},
			`model-catalog: models[0].input[1] "audio" is not a modality (want "text" or "image")`},
		{"modality is case-sensitive", modelcatalog.Config{DefaultModel: "a", Models: models(m("a", "Image"))},
			`model-catalog: models[0].input[0] "Image" is not a modality (want "text" or "image")`},
		{"repeated modality", modelcatalog.Config{DefaultModel: "a", Models: models(m("a", "image", "text", "image"))},
			`model-catalog: models[0].input lists "image" twice`},
		{"empty input list", modelcatalog.Config{DefaultModel: "a", Models: models(modelcatalog.Model{ID: "a", Input: []string{}})},
			"model-catalog: models[0].input must list at least one modality (omit it when unknown)"},
		{"default not listed", modelcatalog.Config{DefaultModel: "b", Models: models(m("a", "image"))},
			`model-catalog: defaultModel "b" is not one of models`},
		{"default with no models", modelcatalog.Config{DefaultModel: "a"},
			`model-catalog: defaultModel "a" is not one of models`},
		{"an id error comes before the default check", modelcatalog.Config{DefaultModel: "zz", Models: models(m(""))},
			"model-catalog: models[0].id must be a non-empty string"},
		{"default matched case-insensitively", modelcatalog.Config{DefaultModel: "VISION", Models: models(m("vision", "text", "image"))}, ""},
		{"unknown capability is valid", modelcatalog.Config{DefaultModel: "legacy", Models: models(m("legacy"))}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.want)
			_, nerr := modelcatalog.New(tc.cfg)
			require.EqualError(t, nerr, tc.want, "New validates too")
		})
	}
}

// decode runs the loader's strict decoding of a config mapping for the plugin.
func decode(t *testing.T, src string) (*modelcatalog.Config, error) {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n))
	v, err := loader.DecodeConfig(modelcatalog.Plugin, n.Content[0])
	if err != nil {
		return nil, err
	}
	return v.(*modelcatalog.Config), nil
}

func TestYAMLDecoding(t *testing.T) {
	cfg, err := decode(t, `
defaultModel: vision
models:
  - { id: vision, input: [text, image] }
  - { id: text-only, input: [text] }
  - { id: legacy }
  - { id: nulled, input: ~ }
`)
	require.NoError(t, err)
	assert.Equal(t, &modelcatalog.Config{DefaultModel: "vision", Models: []modelcatalog.Model{
		{ID: "vision", Input: []string{"text", "image"}},
		{ID: "text-only", Input: []string{"text"}},
		{ID: "legacy"},
		{ID: "nulled"},
	}}, cfg, "models replace the default list; an omitted or null input stays nil (unknown)")

	cfg, err = decode(t, `{}`)
	require.NoError(t, err)
	assert.Equal(t, modelcatalog.DefaultConfig(), *cfg)

	_, err = decode(t, `{models: [{id: a, input: [text]}]}`)
	require.EqualError(t, err, `model-catalog: defaultModel "default" is not one of models`,
		"a list without the default model must name its own default")

	_, err = decode(t, `{defaultModel: a, models: [{id: a, input: []}]}`)
	require.EqualError(t, err, "model-catalog: models[0].input must list at least one modality (omit it when unknown)")
}

func TestYAMLUnknownKeys(t *testing.T) {
	for _, src := range []string{
		"defaultModel: default\nmodel: x\n",
		"models:\n  - id: default\n    inputs: [text]\n",
	} {
		_, err := decode(t, src)
		require.Error(t, err, src)
		var uk *loader.UnknownKeyError
		assert.ErrorAs(t, err, &uk, "unknown keys are errors: %v", err)
	}
	_, err := decode(t, "models: {id: a}\n")
	require.Error(t, err, "a mapping is not a list")
}
