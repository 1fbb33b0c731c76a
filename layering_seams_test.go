package cordon_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seamRuntimes are the seams that are also the plugin providing their own service, with why. An
// entry whose seam no longer defines a plugin fails the test, so the list can only shrink.
var seamRuntimes = map[string]string{
	"plugins/tools": "the tools seam is its runtime: the \"tools\" plugin provides tools.Service",
}

// A seam package is vocabulary: it defines no plugin (docs/layering.md "Where a package lives"),
// save the seams of seamRuntimes. A plugin that speaks a seam lives in its own directory
// (fs-invariant in plugins/fs/invariant), so a composition can leave it out.
func TestLayeringSeamsDefineNoPlugin(t *testing.T) {
	for s := range seams {
		defines := false
		files, err := filepath.Glob(filepath.Join(filepath.FromSlash(s), "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			line := pluginDefinition(t, f, src)
			defines = defines || line > 0
			if _, ok := seamRuntimes[s]; !ok && line > 0 {
				t.Errorf("seam rule broken: %s:%d defines a plugin (kernel.Define): move it to its own directory under %s", filepath.ToSlash(f), line, s)
			}
		}
		if why, ok := seamRuntimes[s]; ok && !defines {
			t.Errorf("seam %s no longer defines a plugin (%s): remove it from seamRuntimes", s, why)
		}
	}
}

// The check on made-up sources: a kernel.Define call anywhere in a file is found, a file that
// only uses the kernel's other helpers is not.
func TestLayeringSeamsDefineNoPluginChecker(t *testing.T) {
	bad := "package fs\n\nimport \"github.com/cordon-dev/cordon/kernel\"\n\nvar P = kernel.Define[struct{}](\"x\", nil)\n"
	assert.Equal(t, 5, pluginDefinition(t, "bad.go", []byte(bad)))
	good := "package fs\n\nimport \"github.com/cordon-dev/cordon/kernel\"\n\nvar E = kernel.NewEvent[int](\"fs/x\")\n"
	assert.Zero(t, pluginDefinition(t, "good.go", []byte(good)))
}

// pluginDefinition returns the line of the first kernel.Define call in src, or 0.
func pluginDefinition(t *testing.T, name string, src []byte) int {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	require.NoError(t, err)
	kernelName := ""
	for _, imp := range file.Imports {
		if imp.Path.Value == `"github.com/cordon-dev/cordon/kernel"` {
			kernelName = "kernel"
			if imp.Name != nil {
				kernelName = imp.Name.Name
			}
		}
	}
	if kernelName == "" {
		return 0
	}
	var lines []int
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if ok && sel.Sel.Name == "Define" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == kernelName {
				lines = append(lines, fset.Position(sel.Pos()).Line)
			}
		}
		return true
	})
	if len(lines) == 0 {
		return 0
	}
	return slices.Min(lines)
}
