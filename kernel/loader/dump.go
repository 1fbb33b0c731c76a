package loader

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// Dump renders entries as a composition file (keys in the order id, name, disabled, config), with
// generated ids filled in. The output parses back to the same composition.
func Dump(entries []Entry) ([]byte, error) {
	resolved, err := ResolveIDs(entries)
	if err != nil {
		return nil, err
	}
	return render(resolved, nil)
}

// Dump renders the applied composition like the package-level Dump, with each entry's state as a
// comment on its id line ("# active", "# pending: missing fs", "# failed: ...", "# disabled").
// The output is still a valid composition.
func (l *Loader) Dump() ([]byte, error) {
	entries, status := l.snapshot()
	return render(entries, func(i int) string { return status[i].describe() })
}

func render(entries []Entry, comment func(i int) string) ([]byte, error) {
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i, e := range entries {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		id := str(e.ID)
		if comment != nil {
			id.LineComment = comment(i)
		}
		m.Content = append(m.Content, str("id"), id, str("name"), str(e.Name))
		if e.Disabled {
			m.Content = append(m.Content, str("disabled"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		if !isEmpty(&e.Config) {
			m.Content = append(m.Content, str("config"), expand(&e.Config))
		}
		list.Content = append(list.Content, m)
	}
	if len(entries) == 0 {
		list.Style = yaml.FlowStyle
	}
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{str("plugins"), list}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
