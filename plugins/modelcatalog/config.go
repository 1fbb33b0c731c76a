package modelcatalog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// DefaultModelID is the id of the model the default configuration lists and selects.
const DefaultModelID = "default"

// Config is the configuration of the model-catalog plugin.
type Config struct {
	// DefaultModel is the id of the model a session that names none talks to. It must be one of
	// Models. Default: DefaultModelID.
	DefaultModel string `json:"defaultModel" yaml:"defaultModel"`
	// Models is the catalog. Default: one model, DefaultModelID, accepting text and image input.
	Models []Model `json:"models" yaml:"models"`
}

// Model is one catalog entry.
type Model struct {
	// ID is the model id sessions name (matched case-insensitively).
	ID string `json:"id" yaml:"id"`
	// Input lists the accepted input modalities (tools.ModalityText, tools.ModalityImage). nil
	// (omitted or null) means the capability is unknown; an empty list is refused.
	Input []string `json:"input,omitempty" yaml:"input,omitempty"`
}

// DefaultConfig returns the configuration with every default applied.
func DefaultConfig() Config {
	var c Config
	c.Defaults()
	return c
}

// Defaults fills every field with its default (the kernel calls it before decoding).
func (c *Config) Defaults() {
	c.DefaultModel = DefaultModelID
	c.Models = []Model{{ID: DefaultModelID, Input: []string{tools.ModalityText, tools.ModalityImage}}}
}

// Validate checks, in order: defaultModel is not blank; every model has a non-blank id that no
// earlier model has (case-insensitively) and, when input is given, a non-empty list of known,
// distinct modalities; defaultModel names one of the models (case-insensitively).
func (c *Config) Validate() error {
	if strings.TrimSpace(c.DefaultModel) == "" {
		return fmt.Errorf("model-catalog: defaultModel must be a non-empty string")
	}
	seen := make(map[string]int, len(c.Models))
	for i, m := range c.Models {
		at := "models[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(m.ID) == "" {
			return fmt.Errorf("model-catalog: %s.id must be a non-empty string", at)
		}
		key := strings.ToLower(m.ID)
		if j, dup := seen[key]; dup {
			return fmt.Errorf("model-catalog: %s.id %q duplicates models[%d]", at, m.ID, j)
		}
		seen[key] = i
		if err := checkModalities(at, m.Input); err != nil {
			return err
		}
	}
	if _, ok := seen[strings.ToLower(c.DefaultModel)]; !ok {
		return fmt.Errorf("model-catalog: defaultModel %q is not one of models", c.DefaultModel)
	}
	return nil
}

// checkModalities refuses an empty list and an unknown or repeated modality of the model at
// position at.
func checkModalities(at string, input []string) error {
	if input != nil && len(input) == 0 {
		return fmt.Errorf("model-catalog: %s.input must list at least one modality (omit it when unknown)", at)
	}
	for i, x := range input {
		if x != tools.ModalityText && x != tools.ModalityImage {
			return fmt.Errorf("model-catalog: %s.input[%d] %q is not a modality (want %q or %q)",
				at, i, x, tools.ModalityText, tools.ModalityImage)
		}
		for _, y := range input[:i] {
			if x == y {
				return fmt.Errorf("model-catalog: %s.input lists %q twice", at, x)
			}
		}
	}
	return nil
}
