package beneath_test

import (
	"path/filepath"
	"testing"

	"github.com/cordon-dev/cordon/internal/beneath"
)

func TestWithinAndRel(t *testing.T) {
	for _, c := range []struct {
		root, path string
		within     bool
		rel        string
	}{
		{"/ws", "/ws", true, ""},
		{"/ws", "/ws/a/b", true, "a/b"},
		{"/ws/", "/ws/a", true, "a"},
		{"/ws", "/ws2/x", false, ""},
		{"/ws", "/w", false, ""},
		{"/", "/", true, ""},
		{"/", "/etc/x", true, "etc/x"},
		{"/ws/a", "/ws", false, ""},
	} {
		if got := beneath.Within(c.root, c.path); got != c.within {
			t.Errorf("Within(%q, %q) = %v", c.root, c.path, got)
		}
		rel, ok := beneath.Rel(c.root, c.path)
		if rel != c.rel || ok != (c.rel != "") {
			t.Errorf("Rel(%q, %q) = %q, %v", c.root, c.path, rel, ok)
		}
	}
}

// FuzzWithinAgreesWithRel: on clean absolute paths, Within is Rel or equality.
func FuzzWithinAgreesWithRel(f *testing.F) {
	f.Add("/ws", "/ws/a")
	f.Fuzz(func(t *testing.T, root, path string) {
		if !filepath.IsAbs(root) || !filepath.IsAbs(path) || filepath.Clean(root) != root || filepath.Clean(path) != path {
			return // the package's inputs are absolute and clean
		}
		_, ok := beneath.Rel(root, path)
		if ok && !beneath.Within(root, path) {
			t.Fatalf("Rel(%q, %q) beneath but not Within", root, path)
		}
		if beneath.Within(root, path) && !ok && path != root {
			t.Fatalf("Within(%q, %q) but Rel refuses", root, path)
		}
	})
}
