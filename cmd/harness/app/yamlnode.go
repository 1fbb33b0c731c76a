package app

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel/loader"
)

// setDefaultKey sets config key to value in e unless the config already has it. A missing or null
// config becomes a one-key mapping.
func setDefaultKey(e *loader.Entry, key, value string) error {
	n := &e.Config
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("entry %q: config must be a mapping", e.Name)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return nil
		}
	}
	n.Content = append(n.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
	return nil
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
