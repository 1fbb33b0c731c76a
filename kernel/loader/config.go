package loader

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/cordon-dev/cordon/kernel"
	"go.yaml.in/yaml/v3"
)

// isEmpty reports whether a config node means "no config": absent or null.
func isEmpty(n *yaml.Node) bool {
	n = deref(n)
	switch n.Kind {
	case 0:
		return true
	case yaml.DocumentNode:
		return len(n.Content) == 0 || isEmpty(n.Content[0])
	case yaml.ScalarNode:
		return n.Tag == "!!null"
	}
	return false
}

// DecodeConfig strictly decodes node into a fresh m.NewConfig() value and validates it
// (kernel.Validator). Unknown keys are *UnknownKeyError values whose Line is the line in the
// composition source. A module without NewConfig accepts only an empty config and yields nil.
func DecodeConfig(m kernel.Module, node *yaml.Node) (any, error) {
	if m.NewConfig == nil {
		if !isEmpty(node) {
			return nil, ErrNoConfig
		}
		return nil, nil
	}
	cfg := m.NewConfig()
	if !isEmpty(node) {
		if err := strictDecode(node, cfg); err != nil {
			return nil, err
		}
	}
	if v, ok := cfg.(kernel.Validator); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// strictDecode decodes node into out with unknown fields rejected. yaml.Node.Decode cannot reject
// unknown fields, so the node (aliases expanded) is re-encoded and read back through a Decoder with
// KnownFields(true); error lines are mapped back to the original source.
func strictDecode(node *yaml.Node, out any) error {
	src := expand(node)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(src); err != nil {
		return fmt.Errorf("re-encode: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("re-encode: %w", err)
	}
	text := buf.Bytes()
	dec := yaml.NewDecoder(bytes.NewReader(text))
	dec.KnownFields(true)
	err := dec.Decode(out)
	if err == nil {
		return nil
	}
	// Map the lines of the re-encoded text back to the source for the error message.
	var copied yaml.Node
	if uerr := yaml.Unmarshal(text, &copied); uerr != nil {
		return fmt.Errorf("re-encode: %w", uerr)
	}
	lines := map[int]int{}
	mapLines(&copied, src, lines)
	return translate(err, lines, "", nil)
}

// expand returns a deep copy of n with aliases replaced by copies of their anchors, so that the
// re-encoded text is self-contained.
func expand(n *yaml.Node) *yaml.Node {
	n = deref(n)
	c := *n
	c.Anchor = ""
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return expand(n.Content[0])
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			c.Content[i] = expand(ch)
		}
	}
	return &c
}

// mapLines walks the re-read copy and its source in parallel, recording copy line -> source line.
func mapLines(copied, src *yaml.Node, lines map[int]int) {
	if copied.Kind == yaml.DocumentNode && len(copied.Content) == 1 {
		copied = copied.Content[0]
	}
	if _, ok := lines[copied.Line]; !ok {
		lines[copied.Line] = src.Line
	}
	for i := 0; i < len(copied.Content) && i < len(src.Content); i++ {
		mapLines(copied.Content[i], src.Content[i], lines)
	}
}

// sameConfig reports whether two raw configs are equal as data (style, comments and key order of
// mappings do not matter; absent equals null).
func sameConfig(a, b *yaml.Node) bool {
	if isEmpty(a) || isEmpty(b) {
		return isEmpty(a) && isEmpty(b)
	}
	var va, vb any
	if a.Decode(&va) != nil || b.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
