package search_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cordon-dev/cordon/internal/search"
)

// tree writes files (path -> content) under a new temporary directory and returns its physical
// path. A path ending in "/" is an empty directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		full := filepath.Join(root, p)
		if p[len(p)-1] == '/' {
			mustNoErr(t, os.MkdirAll(full, 0o755))
			continue
		}
		mustNoErr(t, os.MkdirAll(filepath.Dir(full), 0o755))
		mustNoErr(t, os.WriteFile(full, []byte(c), 0o644))
	}
	return root
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// isolate points HOME and XDG_CONFIG_HOME at empty directories (no global excludes file).
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	return home
}

// files lists the relative paths Files finds under root, sorted.
func files(t *testing.T, root, pattern string, opts search.Options) []string {
	t.Helper()
	var g *search.Glob
	if pattern != "" {
		var err error
		g, err = search.CompileGlob(pattern)
		mustNoErr(t, err)
	}
	found, err := search.Files(context.Background(), root, g, opts)
	mustNoErr(t, err)
	return rels(found)
}

// rels lists the relative paths of found, sorted.
func rels(found search.Found) []string {
	out := make([]string, len(found.Files))
	for i, f := range found.Files {
		out[i] = f.Rel
	}
	slices.Sort(out)
	return out
}

// hit is one line a grep reported.
type hit struct {
	Rel       string
	Line      int
	Text      string
	Truncated bool
	Valid     bool
}

func grep(t *testing.T, q search.GrepQuery, pattern string) []hit {
	t.Helper()
	m, err := search.CompileMatcher(pattern)
	mustNoErr(t, err)
	q.Matcher = m
	if q.MaxLineBytes == 0 {
		q.MaxLineBytes = 2000
	}
	var out []hit
	_, err = search.Grep(context.Background(), q, func(lm search.LineMatch) error {
		out = append(out, hit{lm.Rel, lm.Line, string(lm.Text), lm.Truncated, lm.Valid})
		return nil
	})
	mustNoErr(t, err)
	return out
}

// touch sets the modification time of root/rel to base+offset seconds.
func touch(t *testing.T, root, rel string, offset int) {
	t.Helper()
	ts := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(offset) * time.Second)
	mustNoErr(t, os.Chtimes(filepath.Join(root, rel), ts, ts))
}
