package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// BenchmarkContainment is the decision of one workspace-write call: the writable roots (three
// canonicalizations) and the first-match containment test, for a key inside the workspace (the
// lexical fast path) and outside every root (the identity walk over each root).
func BenchmarkContainment(b *testing.B) {
	ws := filepath.Join(realTemp(b), "a", "b", "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	policy := sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: ws}
	for name, key := range map[string]string{"inside": filepath.Join(ws, "src", "f.go"), "outside": "/usr/share/x/y.txt"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				roots, _ := sandbox.WritableRoots(policy)
				for _, r := range roots {
					if ok, err := sandbox.IsPathUnder(key, r); err != nil || ok {
						break
					}
				}
			}
		})
	}
}
