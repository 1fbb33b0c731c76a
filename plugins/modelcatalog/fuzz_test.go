package modelcatalog_test

import (
	"context"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
)

// FuzzConfig decodes arbitrary config text strictly and, when it is accepted, checks the catalog's
// invariants: the default model resolves to itself, resolution ignores case, and an unknown id
// comes back unchanged with unknown capability.
func FuzzConfig(f *testing.F) {
	f.Add("{}", "default")
	f.Add("defaultModel: v\nmodels: [{id: v, input: [text, image]}, {id: t, input: [text]}, {id: l}]\n", "x/V")
	f.Add("models: [{id: a}]", "a")
	f.Add("defaultModel: A/B\nmodels: [{id: a/b, input: [image]}]", "c/A/b")
	f.Fuzz(func(t *testing.T, src, id string) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(src), &n) != nil || len(n.Content) == 0 {
			return
		}
		v, err := loader.DecodeConfig(modelcatalog.Plugin, n.Content[0])
		if err != nil {
			return
		}
		cfg := v.(*modelcatalog.Config)
		c, err := modelcatalog.New(*cfg)
		if err != nil {
			t.Fatalf("a decoded config passed Validate but New failed: %v", err)
		}
		ctx := context.Background()
		def, err := c.ResolveModel(ctx, c.DefaultModel())
		if err != nil || def.ID != c.DefaultModel() {
			t.Fatalf("default %q resolves to %+v, %v", c.DefaultModel(), def, err)
		}
		a, err1 := c.ResolveModel(ctx, id)
		if err1 != nil {
			t.Fatalf("resolve: %v", err1)
		}
		if !known(c, a.ID) {
			if a.ID != id || a.InputModalities != nil {
				t.Fatalf("unknown id %q came back as %+v", id, a)
			}
		}
		if isASCII(id) {
			b, err2 := c.ResolveModel(ctx, strings.ToUpper(id))
			if err2 != nil {
				t.Fatalf("resolve: %v", err2)
			}
			if known(c, a.ID) != known(c, b.ID) || (known(c, a.ID) && a.ID != b.ID) {
				t.Fatalf("case changes the outcome: %+v vs %+v", a, b)
			}
		}
	})
}

func known(c *modelcatalog.Catalog, id string) bool {
	for _, m := range c.Models() {
		if m.ID == id {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
