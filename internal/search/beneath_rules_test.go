package search_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cordon-dev/cordon/internal/search"
)

// TestBeneathReadsNoRuleAboveIt: a search confined beneath a directory reads no ignore file above
// it and not the user's global excludes file (they lie outside the confinement), while the rules
// beneath it apply as in any git work tree, the enclosing repository being above it.
func TestBeneathReadsNoRuleAboveIt(t *testing.T) {
	home := isolate(t)
	mustNoErr(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = ~/global-ignore\n"), 0o644))
	mustNoErr(t, os.WriteFile(filepath.Join(home, "global-ignore"), []byte("d.txt\n"), 0o644))
	top := tree(t, map[string]string{
		".git/":             "",
		".gitignore":        "secret.txt\n*.log\n",
		".ignore":           "a.txt\n",
		"ws/.gitignore":     "c.txt\n",
		"ws/secret.txt":     "x",
		"ws/a.txt":          "x",
		"ws/b.log":          "x",
		"ws/c.txt":          "x",
		"ws/d.txt":          "x",
		"ws/e.txt":          "x",
		"ws/sub/.gitignore": "f.txt\n",
		"ws/sub/f.txt":      "x",
		"ws/sub/g.txt":      "x",
	})
	ws := filepath.Join(top, "ws")

	unconfined := files(t, ws, "", search.Options{})
	want := []string{".gitignore", "e.txt", "sub/.gitignore", "sub/g.txt"}
	if !slices.Equal(unconfined, want) {
		t.Fatalf("unconfined: got %q, want %q", unconfined, want)
	}
	for _, root := range []string{ws, filepath.Join(ws, "sub")} {
		got := files(t, root, "", search.Options{Beneath: ws})
		want := []string{".gitignore", "a.txt", "b.log", "d.txt", "e.txt", "secret.txt", "sub/.gitignore", "sub/g.txt"}
		if root != ws {
			want = []string{".gitignore", "g.txt"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("beneath %s, root %s: got %q, want %q", ws, root, got, want)
		}
	}
}
