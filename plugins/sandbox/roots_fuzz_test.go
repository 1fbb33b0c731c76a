package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// fuzzTree builds base/{ws/{a/b,file},ws2,out} with ws/link -> out and out/link-in -> ws.
func fuzzTree(t testing.TB) string {
	base := realTemp(t)
	for _, d := range []string{"ws/a/b", "ws2", "out"} {
		require.NoError(t, os.MkdirAll(filepath.Join(base, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(base, "ws", "file"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(base, "out"), filepath.Join(base, "ws", "link")))
	require.NoError(t, os.Symlink(filepath.Join(base, "ws"), filepath.Join(base, "out", "link-in")))
	return base
}

// lexicallyWithin is an independent oracle: filepath.Rel does not climb out of root.
func lexicallyWithin(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// canonicalKey is the key a resolver builds: the realpath of the deepest existing ancestor plus
// the missing suffix. ok is false when the path passes through a regular file or cannot be read.
func canonicalKey(p string) (string, bool) {
	var missing []string
	for a := p; ; {
		real, err := filepath.EvalSymlinks(a)
		if err == nil {
			return filepath.Join(append([]string{real}, missing...)...), true
		}
		if !os.IsNotExist(err) {
			return "", false
		}
		parent := filepath.Dir(a)
		if parent == a {
			return "", false
		}
		missing = append([]string{filepath.Base(a)}, missing...)
		a = parent
	}
}

// FuzzIsPathUnder: containment is never granted to a path outside the root. For any input, a
// true answer means the path is clean and absolute, the anchor is the path or one of its
// ancestors, and either the path lies lexically under the root or the anchor is the root
// directory itself. For canonical spellings (what the fence passes) the answer equals the
// physical containment oracle exactly.
func FuzzIsPathUnder(f *testing.F) {
	for _, s := range [][2]string{
		{"ws/x", "ws"}, {"ws2/x", "ws"}, {"ws/../out/x", "ws"}, {"ws/link/x", "ws"},
		{"out/link-in/x", "ws"}, {"ws", "ws"}, {"ws/file/x", "ws"}, {"ws/a/b/c", "ws/a"},
		{"/", "/"}, {"x", "/"}, {"ws//x", "ws"}, {"ws/./x", "ws/"}, {"WS/x", "ws"},
		{"out/x", "missing"}, {"ws/link", "out"}, {"ws\x00/x", "ws"},
	} {
		f.Add(s[0], s[1])
	}
	base := fuzzTree(f)
	f.Fuzz(func(t *testing.T, p, r string) {
		path, root := p, r
		if !strings.HasPrefix(p, "/") {
			path = base + "/" + p
		}
		if !strings.HasPrefix(r, "/") {
			root = base + "/" + r
		}
		anchor, ok, err := sandbox.UnderRoot(path, root, true)
		if err != nil || !ok {
			require.False(t, ok)
		} else {
			require.Equal(t, filepath.Clean(path), path, "contained paths are clean")
			require.True(t, lexicallyWithin(anchor, path), "anchor %q is an ancestor of %q", anchor, path)
			if !lexicallyWithin(filepath.Clean(root), path) {
				ai, aerr := os.Stat(anchor)
				ri, rerr := os.Stat(root)
				require.NoError(t, aerr)
				require.NoError(t, rerr)
				require.True(t, os.SameFile(ai, ri), "%q is outside %q", path, root)
			}
		}

		// Canonical spellings: the decision is physical containment.
		if strings.IndexByte(path, 0) >= 0 || strings.IndexByte(root, 0) >= 0 {
			return
		}
		key, kok := canonicalKey(filepath.Clean(path))
		realRoot, rerr := filepath.EvalSymlinks(root)
		if !kok || rerr != nil {
			return
		}
		got, err := sandbox.IsPathUnder(key, realRoot)
		require.NoError(t, err)
		require.Equal(t, lexicallyWithin(realRoot, key), got, "key %q root %q", key, realRoot)
	})
}
